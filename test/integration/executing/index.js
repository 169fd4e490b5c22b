'use strict';
// extensionTestsPath of the "executing" suite: test/fixtures/workspace-executing (copied to a temp
// dir) with the scripted-model test extension loaded beside Loom.
const { runMochaTests } = require('../mochaRunner');

exports.run = () => runMochaTests(__dirname, { timeout: 120000 });
