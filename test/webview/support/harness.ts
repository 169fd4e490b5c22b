/**
 * Loads the built webview pages in Debian's chromium through playwright-core, the way VS Code
 * would: the page from `renderWebviewHtml` with its CSP and nonce, the bundles served from one
 * origin (standing in for the extension's build folder), `acquireVsCodeApi` stubbed, and
 * protocol messages delivered with `window.postMessage`.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { HostMessage, PersistedViewState, ViewKind, WebviewMessage } from '../../../src/shared/protocol';
import { renderWebviewHtml } from '../../../src/shared/webviewHtml';
import { THEMES, type ThemeKind } from '../themes';
import type { Language } from '../../../src/shared/messages/language';

const REPO = resolve(__dirname, '../../..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
export const RESULTS_DIR = join(REPO, 'test-results');

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.map': 'application/json' };

export interface OpenOptions {
  theme?: ThemeKind;
  /** What `getState()` returns at load, as after a window reload. */
  state?: PersistedViewState;
  /** Sent in answer to the page's `ready`, like the host's `init`. */
  reply?: HostMessage;
  viewport?: { width: number; height: number };
  /** The host's display language, written into `<html lang>` as the host does. */
  language?: Language;
}

export class WebviewHarness {
  private constructor(
    readonly browser: Browser,
    private readonly server: Server,
    readonly origin: string,
    readonly dir: string,
  ) {}

  /** Builds the bundles into a temp folder of this process (test files run in parallel), serves them and starts chromium. */
  static async start(): Promise<WebviewHarness> {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    const dir = mkdtempSync(join(tmpdir(), 'loom-webview-'));
    // LOOM_WEBVIEW_DEV=1 builds readable bundles with source maps, for debugging a failing test.
    const dev = process.env.LOOM_WEBVIEW_DEV ? ['--dev'] : [];
    const built = spawnSync(process.execPath, [join(REPO, 'scripts/build-webviews.mjs'), '--outdir', join(dir, 'dist/webview'), ...dev], { encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`building the webviews failed:\n${built.stderr}`);
    mkdirSync(join(dir, 'pages'));
    const server = createServer((req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^[/\\]+/, '');
      const file = join(dir, path);
      // Chromium asks for one on its own; a 404 would read as an error of the page.
      if (path === 'favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      if (!file.startsWith(dir + sep) || !existsSync(file)) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(readFileSync(file));
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    return new WebviewHarness(browser, server, origin, dir);
  }

  /** Opens a page of `view` the way the host builds it, with a fresh nonce. */
  async open(view: ViewKind, options: OpenOptions = {}): Promise<ViewPage> {
    const nonce = randomBytes(16).toString('base64');
    const name = `${view}-${randomBytes(4).toString('hex')}.html`;
    writeFileSync(
      join(this.dir, 'pages', name),
      renderWebviewHtml({
        view,
        cspSource: this.origin,
        nonce,
        scriptUri: `${this.origin}/dist/webview/${view}.js`,
        styleUri: `${this.origin}/dist/webview/${view}.css`,
        title: view,
        ...(options.language ? { language: options.language } : {}),
      }),
    );
    const theme = THEMES[options.theme ?? 'dark'];
    const page = await this.browser.newPage({ viewport: options.viewport ?? { width: 1200, height: 800 } });
    const vp = new ViewPage(page);
    // The reply as JSON text, not an object literal: the script that parsed a model of thousands of
    // rows as code before the page loaded took most of the matrix benchmark's time.
    const init = { state: options.state, reply: options.reply && JSON.stringify(options.reply), themeVars: theme.vars, bodyClass: theme.bodyClass, themeKind: theme.kind };
    await page.addInitScript({ content: `const __init = ${JSON.stringify(init)};\n${readFileSync(join(__dirname, 'vscodeStub.js'), 'utf8')}` });
    await page.goto(`${this.origin}/pages/${name}`);
    if (options.reply) await vp.waitRenders(1);
    return vp;
  }

  async close(): Promise<void> {
    await this.browser.close();
    await new Promise<void>((ok) => this.server.close(() => ok()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** One loaded webview page and what it did. */
export class ViewPage {
  /** Console errors and page errors: a test expects none. */
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.errors.push(m.text());
    });
    page.on('pageerror', (e) => this.errors.push(e.message));
  }

  /** Every message the page posted to the "host", in order. */
  posted(): Promise<WebviewMessage[]> {
    return this.page.evaluate('window.__loom.posted') as Promise<WebviewMessage[]>;
  }

  async postedOf<T extends WebviewMessage['type']>(type: T): Promise<Extract<WebviewMessage, { type: T }>[]> {
    return (await this.posted()).filter((m): m is Extract<WebviewMessage, { type: T }> => m.type === type);
  }

  clearPosted(): Promise<unknown> {
    return this.page.evaluate('window.__loom.posted.length = 0');
  }

  /** What the page last saved with setState. */
  state(): Promise<PersistedViewState | undefined> {
    return this.page.evaluate('window.__loom.state') as Promise<PersistedViewState | undefined>;
  }

  cspViolations(): Promise<string[]> {
    return this.page.evaluate('window.__loom.csp') as Promise<string[]>;
  }

  renders(): Promise<number> {
    return this.page.evaluate('window.__loom.renders') as Promise<number>;
  }

  async waitRenders(count: number): Promise<void> {
    await this.page.waitForFunction(`window.__loom && window.__loom.renders >= ${count}`, undefined, { timeout: 15_000 });
  }

  /** Delivers a host message and waits until the page has rendered it. */
  async send(message: HostMessage): Promise<void> {
    const before = await this.renders();
    await this.page.evaluate((m) => (globalThis as unknown as { postMessage(m: unknown, target: string): void }).postMessage(m, '*'), message);
    await this.waitRenders(before + 1);
  }

  /** Lets pending frames and the debounced state save run. */
  async settle(ms = 200): Promise<void> {
    await this.page.waitForTimeout(ms);
  }

  async screenshot(name: string): Promise<string> {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const path = join(RESULTS_DIR, `${name}.png`);
    await this.page.screenshot({ path, fullPage: false });
    return path;
  }

  /** Closes the page after checking it broke no CSP rule and logged no error. */
  async finish(): Promise<void> {
    const violations = await this.cspViolations();
    await this.page.close();
    if (violations.length) throw new Error(`CSP violations: ${violations.join('; ')}`);
    if (this.errors.length) throw new Error(`errors in the page: ${this.errors.join('; ')}`);
  }

  close(): Promise<void> {
    return this.page.close();
  }
}
