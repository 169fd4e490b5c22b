// The user's cache folder (the code caches and the spec caches). A module of its own, which
// imports only Node: the extension's entry (src/extensionEntry.ts) reads it before its bundle.
export { userCacheFolder } from '../userCacheFolder';
