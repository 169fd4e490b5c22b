'use strict';
// extensionTestsPath of the "locale" suite: test/fixtures/workspace-basic in VS Code with --locale zh-cn.
const { runMochaTests } = require('../mochaRunner');

exports.run = () => runMochaTests(__dirname);
