export { CATALOG, message, render, t, type Message, type MessageKey, type MessageParams } from './catalog';
export type { MessageEntry, MessageTable } from './catalogTypes';
export { displayLanguage, languageOfEnvironment, languageOfLocale, LANGUAGES, setDisplayLanguage, type Language } from './language';
export { schemaText, stageDescription, transitionDescription } from './schemaTexts';
