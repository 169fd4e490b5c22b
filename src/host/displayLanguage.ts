import * as vscode from 'vscode';
import { languageOfLocale, setDisplayLanguage } from '../core/port/messages';

/*
 * Imported once by extension.ts for this effect: the catalog words every sentence of the host and
 * the core in VS Code's display language, read through the one language check (languageOfLocale).
 * VS Code reloads the window to change it, so reading it once at load is enough.
 */
setDisplayLanguage(languageOfLocale(vscode.env.language));
