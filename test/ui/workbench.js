'use strict';
/**
 * What the UI tests share: a workbench (code-server with the extension loaded as `npm start`
 * loads it, in headless chromium driven by playwright-core) on a copy of a workspace, and the
 * Loom view's rows.
 */
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const RESULTS = path.join(ROOT, 'test-results');
const WAIT = { timeout: 60_000 };

/** Builds unless dist/extension.js is newer than every source file (or LOOM_TEST_SKIP_BUILD=1). */
function buildIfNeeded() {
  if (process.env.LOOM_TEST_SKIP_BUILD === '1') return;
  const bundle = path.join(ROOT, 'dist', 'extension.js');
  const newest = (dir) =>
    fs
      .readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((d) => d.isFile())
      .reduce((m, d) => Math.max(m, fs.statSync(path.join(d.parentPath ?? d.path, d.name)).mtimeMs), 0);
  const sources = ['src', 'webview-ui', 'l10n'].map((d) => path.join(ROOT, d)).filter((d) => fs.existsSync(d));
  const srcTime = Math.max(fs.statSync(path.join(ROOT, 'package.json')).mtimeMs, ...sources.map(newest));
  if (fs.existsSync(bundle) && fs.statSync(bundle).mtimeMs >= srcTime) return;
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm run build failed');
}

/**
 * Copies `source` to a temp dir (with `.vscode/settings.json` = `settings`), serves it in
 * code-server with the extension loaded as `npm start` loads it, opens it in chromium and runs
 * `drive(page, { workspace, shot, crop })`. On failure it keeps a screenshot and code-server's log.
 */
async function withWorkbench(t, source, settings, drive) {
  buildIfNeeded();
  const cs = require('../vscode/codeServer');
  const { serveWithExtension } = require('../../scripts/start');
  fs.mkdirSync(RESULTS, { recursive: true });

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-ui-'));
  const workspace = path.join(tmp, path.basename(source));
  fs.cpSync(source, workspace, { recursive: true });
  fs.mkdirSync(path.join(workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));

  let server;
  let browser;
  const killNow = () => server?.killNow();
  const interrupted = () => {
    killNow();
    fs.rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  };
  process.on('exit', killNow); // last resort: never leave code-server behind
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  t.after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    process.off('exit', killNow);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    if (process.env.LOOM_UI_KEEP !== '1') fs.rmSync(tmp, { recursive: true, force: true });
  });

  const started = await serveWithExtension({ target: workspace, stateDir: path.join(tmp, 'code-server') });
  server = started.server;
  browser = await cs.launchBrowser(path.join(tmp, 'chromium'));
  const page = browser.pages()[0] ?? (await browser.newPage());
  page.on('console', (m) => {
    if (m.type() === 'error' && /loom/i.test(m.text())) console.log(`[browser] ${m.text()}`);
  });
  const shot = async (name) => {
    const file = path.join(RESULTS, `ui-${name}.png`);
    await page.screenshot({ path: file });
    console.log(`screenshot: ${path.relative(ROOT, file)}`);
  };
  /**
   * A picture of the part of the window a step is about (the side bar, the editor, a dialog), as
   * the walkthrough and the README show it: test-results/walkthrough/<name>.png. `height` keeps
   * only the top of a tall part.
   */
  const crop = async (name, part, { pad = 0, height } = {}) => {
    const box = await part.boundingBox();
    if (!box) throw new Error(`${name}: the part to picture is not on the screen`);
    const viewport = page.viewportSize();
    const x = Math.max(0, box.x - pad);
    const y = Math.max(0, box.y - pad);
    const clip = { x, y, width: Math.min(viewport.width - x, box.width + 2 * pad), height: Math.min(viewport.height - y, height ?? box.height + 2 * pad) };
    const file = path.join(RESULTS, 'walkthrough', `${name}.png`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page.screenshot({ path: file, clip });
    console.log(`picture: ${path.relative(ROOT, file)} (${Math.round(clip.width)}×${Math.round(clip.height)})`);
  };

  try {
    // On a busy machine the workbench's first load can take longer than playwright's 30 s.
    await page.goto(started.url, { timeout: 120_000 });
    await page.locator('.monaco-workbench').waitFor(WAIT);
    await drive(page, { workspace, shot, crop });
  } catch (e) {
    await shot(`failure-${t.name.split(/\W+/)[0].toLowerCase()}`).catch(() => {});
    // What the screen said, in the test's output: CI keeps the output, not the screenshots.
    const said = await page.evaluate(describeScreen).catch((err) => `(the page did not answer: ${err.message})`);
    console.error(`on the screen:\n${said}`);
    const log = path.join(RESULTS, `ui-code-server-${t.name.split(/\W+/)[0].toLowerCase()}.log`); // the temp dir goes away
    fs.copyFileSync(server.logFile, log);
    console.error(`code-server log: ${path.relative(ROOT, log)}`);
    throw e;
  }
}

/** The texts a person would read on a failure: quick input, dialog, notifications, the Loom view's rows. Runs in the page. */
function describeScreen() {
  const text = (sel) => [...document.querySelectorAll(sel)].map((el) => el.innerText.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const parts = [
    ['quick input', document.querySelector('.quick-input-widget')?.style.display === 'none' ? [] : text('.quick-input-widget .quick-input-title, .quick-input-widget .monaco-list-row')],
    ['dialog', text('.monaco-dialog-box')],
    ['notifications', text('.notification-toast .notification-list-item-message')],
    ['Loom view', text('.customview-tree .monaco-list-row')],
    ['focused', [document.activeElement?.className ?? '']],
  ];
  return parts.map(([what, lines]) => `  ${what}: ${lines.length ? lines.join(' | ') : '-'}`).join('\n');
}

/**
 * Runs a command from the palette by its title; `pick` answers a quick pick that follows, and
 * `beforeEnter` runs while the command's row is shown (for a screenshot).
 * The chat view may take the focus back while the palette opens (it does at start-up), which
 * closes it, and on a busy machine the list can lag behind: open it again until the command's
 * row is the focused one.
 */
async function runCommand(page, title, pick, beforeEnter) {
  const quickInput = page.locator('.quick-input-widget');
  // The focused row, the one Enter runs: before the palette has filtered on the text, the
  // command's row can already be in view further down an unfiltered list.
  const row = focusedRow(quickInput, title);
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press('F1');
      await quickInput.locator('input').waitFor({ timeout: 10_000 });
      // fill, not type: on a busy machine typed keys can reach the palette before it has focus.
      await quickInput.locator('input').fill(`>${title}`, { timeout: 10_000 });
      await row.waitFor({ timeout: 20_000 });
      break;
    } catch (e) {
      if (attempt === 4) throw e;
      await page.keyboard.press('Escape');
    }
  }
  await beforeEnter?.();
  await page.keyboard.press('Enter');
  if (pick) {
    await quickInput.locator('.monaco-list-row', { hasText: pick }).first().waitFor(WAIT);
    await page.keyboard.type(pick);
    await focusedRow(quickInput, pick).waitFor(WAIT);
    await page.keyboard.press('Enter');
  }
}

/** The quick input's focused row when it holds `text`. */
const focusedRow = (quickInput, text) => quickInput.locator('.monaco-list-row.focused', { hasText: text }).first();

/** Opens the Loom view container from its activity-bar icon; returns the view's pane body. */
async function openLoomView(page) {
  const icon = page.locator('.activitybar .action-item [aria-label^="Loom"], .activitybar .action-item[aria-label^="Loom"]').first();
  await icon.waitFor(WAIT);
  await icon.click();
  return page.locator('.pane-body', { has: page.locator('.customview-tree') }).first();
}

/** A tree row by its label. */
const treeRow = (page, view, label) => view.locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();

module.exports = { ROOT, RESULTS, WAIT, buildIfNeeded, withWorkbench, openLoomView, runCommand, treeRow };
