import { languageOfLocale, setDisplayLanguage } from '../../src/shared/messages/language';

/*
 * Imported first by each view's entry: the page's language is the one the host wrote into
 * `<html lang>`, known before any label is made; `init` and `update` carry it again.
 */
setDisplayLanguage(languageOfLocale(document.documentElement.lang));
