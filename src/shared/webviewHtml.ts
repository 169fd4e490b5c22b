/**
 * The HTML page of both webviews. The host fills it with `asWebviewUri` links into the
 * extension's build folder; the browser tests fill it with a local server's address, so both
 * load exactly the same page.
 *
 * CSP: nothing is allowed by default; styles and fonts only from the extension (`cspSource`),
 * scripts only with this load's nonce. Nothing inline: no inline styles, no event attributes.
 */
import { LANGUAGE_TAGS, type Language } from './messages/language';
import type { ViewKind } from './protocol';
import { tv } from './messages/viewText';

export interface WebviewHtmlOptions {
  view: ViewKind;
  /** `webview.cspSource`. */
  cspSource: string;
  /** A fresh random value per page load (e.g. `crypto.randomBytes(16).toString('base64')`). */
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
  /** The page's language, for screen readers and the fonts (CJK glyphs); defaults to English. */
  language?: Language;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return ["default-src 'none'", `style-src ${cspSource}`, `script-src 'nonce-${nonce}'`, `font-src ${cspSource}`, `img-src ${cspSource} data:`].join('; ');
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export function renderWebviewHtml(o: WebviewHtmlOptions): string {
  const attr = escapeHtml;
  return `<!DOCTYPE html>
<html lang="${LANGUAGE_TAGS[o.language ?? 'en']}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(o.styleUri)}">
<title>${escapeHtml(o.title)}</title>
</head>
<body data-view="${attr(o.view)}">
<main id="app" aria-busy="true"><p class="placeholder">${escapeHtml(tv('view.loading', {}, o.language ?? 'en'))}</p></main>
<script nonce="${attr(o.nonce)}" src="${attr(o.scriptUri)}"></script>
</body>
</html>
`;
}

/** The bundles `scripts/build-webviews.mjs` writes, relative to the extension root. */
export const WEBVIEW_BUNDLES: Readonly<Record<ViewKind, { script: string; style: string }>> = {
  dashboard: { script: 'dist/webview/dashboard.js', style: 'dist/webview/dashboard.css' },
  matrix: { script: 'dist/webview/matrix.js', style: 'dist/webview/matrix.css' },
};
