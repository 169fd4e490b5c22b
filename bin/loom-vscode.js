#!/usr/bin/env node
// Thin launcher: the CLI itself is bundled by `npm run build` into dist/cli.js.
'use strict';
const path = require('path');
const fs = require('fs');
const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
if (!fs.existsSync(bundle)) {
  process.stderr.write(`loom-vscode: ${bundle} is missing; run "npm run build" first.\n`);
  process.exit(2);
}
// Required as it is: V8's code cache of the bundle saved no measurable time of a status run (docs/performance.md).
require(bundle)
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
