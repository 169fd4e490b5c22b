// The entry of dist/zod.js: zod's CommonJS build, bundled on its own for the extension's bundle
// (scripts/build.mjs, zodBeside), which requires it from beside itself on the first schema built.
module.exports = require('zod');
