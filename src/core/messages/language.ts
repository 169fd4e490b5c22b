export { displayLanguage, languageOfEnvironment, languageOfLocale, LANGUAGES, setDisplayLanguage, type Language } from '../../shared/messages/language';
