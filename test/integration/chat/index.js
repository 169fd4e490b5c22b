'use strict';
// extensionTestsPath of the "chat" suite: test/fixtures/workspace-chat (copied to a temp dir) with
// the scripted-model test extension, registered as a chat model provider the chat view can pick.
const { runMochaTests } = require('../mochaRunner');

exports.run = () => runMochaTests(__dirname, { timeout: 120000 });
