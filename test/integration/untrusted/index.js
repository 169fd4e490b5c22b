'use strict';
// extensionTestsPath of the "untrusted" suite: test/fixtures/workspace-basic (copied to a temp
// dir) opened with workspace trust on, so in Restricted Mode (runTests.js `workspaceTrust: true`).
const { runMochaTests } = require('../mochaRunner');

exports.run = () => runMochaTests(__dirname);
