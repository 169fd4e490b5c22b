'use strict';
/**
 * Runs the mocha tests of one integration suite inside the VS Code extension host.
 * Each suite's index.js (its extensionTestsPath) calls runMochaTests(__dirname).
 *
 * Tests use mocha's TDD interface (suite / test / suiteSetup / setup ...) and may
 * `require('vscode')`. Set LOOM_TEST_GREP to run only the tests whose title matches.
 */
const fs = require('fs');
const path = require('path');
const Mocha = require('mocha');

/**
 * Loads every `*.test.js` file in `testsDir` (not recursive, sorted by name) that `only` keeps and runs them.
 * Resolves when all pass; rejects when any fails (VS Code then exits with a non-zero code).
 */
function runMochaTests(testsDir, options = {}, only = () => true) {
  const mocha = new Mocha({
    ui: 'tdd',
    reporter: 'spec',
    color: true,
    timeout: 20000,
    grep: process.env.LOOM_TEST_GREP || undefined,
    ...options,
  });

  const files = fs
    .readdirSync(testsDir)
    .filter((f) => f.endsWith('.test.js') && only(f))
    .sort();
  if (files.length === 0) return Promise.reject(new Error(`no *.test.js files in ${testsDir}`));
  for (const f of files) mocha.addFile(path.join(testsDir, f));

  return new Promise((resolve, reject) => {
    try {
      mocha.run((failures) => {
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
    } catch (err) {
      // A test file that throws while loading ends up here.
      reject(err);
    }
  });
}

module.exports = { runMochaTests };
