'use strict';
// extensionTestsPath of the "multi-root" suite (test/fixtures/workspace-multi, copied to a temp dir).
const { runMochaTests } = require('../mochaRunner');

exports.run = () => runMochaTests(__dirname);
