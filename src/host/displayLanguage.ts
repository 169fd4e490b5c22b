import * as vscode from 'vscode';
import { languageOfLocale, setDisplayLanguage } from '../core/port/messages';

/*
 * Imported once by extension.ts for this effect: the core words its sentences in VS Code's
 * display language, the one the host's own strings (l10n bundles) follow. VS Code reloads the
 * window to change it, so reading it once at load is enough.
 */
setDisplayLanguage(languageOfLocale(vscode.env.language));
