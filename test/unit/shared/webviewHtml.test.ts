import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contentSecurityPolicy, renderWebviewHtml } from '../../../src/shared/webviewHtml';

const options = {
  view: 'matrix' as const,
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce: 'bm9uY2Uvd2l0aCtzeW1ib2xz',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/matrix.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview/matrix.css',
  title: 'Traceability <login> & "more"',
};

describe('renderWebviewHtml', () => {
  const html = renderWebviewHtml(options);

  it('sets a CSP that allows nothing but the extension’s styles and fonts and the nonce’s script', () => {
    assert.equal(
      contentSecurityPolicy(options.cspSource, options.nonce),
      `default-src 'none'; style-src ${options.cspSource}; script-src 'nonce-${options.nonce}'; font-src ${options.cspSource}; img-src ${options.cspSource} data:`,
    );
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
    assert.ok(meta);
    assert.equal(meta[1].replace(/&#39;/g, "'"), contentSecurityPolicy(options.cspSource, options.nonce));
  });

  it('loads exactly one script, with the nonce, and one stylesheet', () => {
    assert.deepEqual(html.match(/<script[^>]*>/g), [`<script nonce="${options.nonce}" src="${options.scriptUri}">`]);
    assert.deepEqual(html.match(/<link[^>]*>/g), [`<link rel="stylesheet" href="${options.styleUri}">`]);
  });

  it('has no inline style, inline script or event attribute', () => {
    assert.doesNotMatch(html, /<style|\sstyle=|\son[a-z]+=/i);
    assert.doesNotMatch(html, /<script[^>]*>[^<]+<\/script>/);
  });

  it('escapes the title', () => {
    assert.match(html, /<title>Traceability &lt;login&gt; &amp; &quot;more&quot;<\/title>/);
  });

  it('names its view for the bundle', () => {
    assert.match(html, /<body data-view="matrix">/);
    assert.match(html, /<main id="app" aria-busy="true">/);
  });
});
