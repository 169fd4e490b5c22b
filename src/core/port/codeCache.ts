// Loading a bundle with V8's code cache: the extension's entry (src/extensionEntry.ts) loads the
// extension with it. A module of its own so that first paint loads no more of the core.
export { loadWithCodeCache } from '../threads/codeCacheLoader';
