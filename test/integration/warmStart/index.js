'use strict';
// extensionTestsPath of the "warm-start" suite: test/fixtures/workspace-basic opened twice with the same profile.
const { runMochaTests } = require('../mochaRunner');

exports.run = () => runMochaTests(__dirname);
