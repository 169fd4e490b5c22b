// What the extension's entry (dist/extension.js) words itself when the bundle cannot start: one
// table read without the catalog, which the entry must not load (src/extensionEntry.ts).
export { hostEntryMessages } from '../messages/hostEntry';
