'use strict';
// extensionTestsPath of the smoke suite: VS Code calls run() once the extension host is up.
const { runMochaTests } = require('../mochaRunner');

exports.run = () => runMochaTests(__dirname);
