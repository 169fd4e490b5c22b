'use strict';
// extensionTestsPath of the "end-to-end" suite: a copy of sample/ made a throwaway git repository,
// with the scripted-model test extension (drafts of test/fixtures/authoring-csv) beside Loom.
const { runMochaTests } = require('../mochaRunner');

exports.run = () => runMochaTests(__dirname, { timeout: 180000 });
