'use strict';
// extensionTestsPath of the "basic" suite (test/fixtures/workspace-basic, copied to a temp dir).
const { runMochaTests } = require('../mochaRunner');

exports.run = () => runMochaTests(__dirname);
