'use strict';
// extensionTestsPath of the "executing" suite: test/fixtures/workspace-executing (copied to a temp
// dir) with the scripted-model test extension loaded beside Loom. The second window (a reload of
// the first) runs only the tests of what a reload must keep (*.reloaded.test.js); the first, all the others.
const { runMochaTests } = require('../mochaRunner');

const reloaded = process.env.LOOM_TEST_WINDOW === '2';
exports.run = () => runMochaTests(__dirname, { timeout: 120000 }, (f) => f.endsWith('.reloaded.test.js') === reloaded);
