'use strict';
/**
 * Renders media/loom.svg into media/loom.png, the 128×128 Marketplace icon: the same drawing,
 * white on a rounded dark square so it reads on the Marketplace's light and dark pages.
 *
 *   node scripts/render-icon.js
 *
 * Uses the chromium the UI tests use (playwright-core, /usr/bin/chromium or $LOOM_CHROMIUM).
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { launchBrowser } = require('../test/vscode/codeServer');

const ROOT = path.resolve(__dirname, '..');
const SIZE = 128;

async function main() {
  const svg = fs.readFileSync(path.join(ROOT, 'media', 'loom.svg'), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  const drawing = svg.replace(/width="24" height="24"/, 'width="96" height="96"').replace('stroke="currentColor"', 'stroke="#ffffff"');
  const html = `<!doctype html><html><body style="margin:0;background:transparent">
    <div id="icon" style="width:${SIZE}px;height:${SIZE}px;border-radius:24px;background:linear-gradient(135deg,#2b4c7e,#1b2a41);display:flex;align-items:center;justify-content:center">${drawing}</div>
  </body></html>`;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'loom-icon-'));
  const browser = await launchBrowser(profile);
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.setContent(html);
    await page.locator('#icon').screenshot({ path: path.join(ROOT, 'media', 'loom.png'), omitBackground: true });
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  console.log('media/loom.png');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
