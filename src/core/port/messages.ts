// The core's catalog of sentences and the display language, for every surface.
export type { Language } from '../messages';
export { LANGUAGES, displayLanguage, languageOfEnvironment, languageOfLocale, setDisplayLanguage, t, transitionDescription } from '../messages';
export { specLanguage } from '../specdir/specLanguage';
