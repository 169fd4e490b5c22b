/**
 * Both views in the light, dark and high-contrast themes: screenshots under test-results/ (to be
 * looked at), no CSP violation, and a floor on the contrast of the text that carries meaning.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { dashboardModel } from './support/dashboardModels';
import { WebviewHarness, type ViewPage } from './support/harness';
import { matrixModel } from './support/matrixModels';
import type { ThemeKind } from './themes';

const CONTRAST = readFileSync(join(__dirname, 'support/contrast.js'), 'utf8');
const THEMES: ThemeKind[] = ['light', 'dark', 'high-contrast'];
/** WCAG AA asks 4.5:1 of body text, 3:1 of large text and UI components. VS Code's own muted text is at about 4.5:1. */
const MIN_CONTRAST = 4;

let harness: WebviewHarness;
before(async () => {
  harness = await WebviewHarness.start();
});
after(async () => {
  await harness?.close();
});

async function worstContrast(p: ViewPage, selectors: string[]): Promise<{ ratio: number; selector: string; text: string }> {
  return p.page.evaluate(`(${CONTRAST})(${JSON.stringify(selectors)})`) as Promise<{ ratio: number; selector: string; text: string }>;
}

describe('themes', () => {
  for (const theme of THEMES) {
    it(`matrix in ${theme}`, async () => {
      const p = await harness.open('matrix', { theme, reply: { type: 'init', model: matrixModel(60) }, viewport: { width: 1280, height: 760 } });
      await p.page.locator('.row.behavior', { hasText: 'REQ-001-B05' }).locator('.cell').nth(4).click();
      await p.settle(150);
      await p.screenshot(`matrix-${theme}`);
      const worst = await worstContrast(p, [
        '.counts span',
        '.header-row .cell',
        '.c-group strong',
        '.c-group span',
        '.c-behavior .file-link',
        '.c-behavior .desc',
        '.c-category',
        '.c-status',
        '.c-refs .file-link',
        '.ref-missing',
        '.ref-empty',
        '.c-closed',
      ]);
      assert.ok(worst.ratio >= MIN_CONTRAST, `lowest contrast ${worst.ratio.toFixed(2)} for ${worst.selector} "${worst.text}"`);
      await p.finish();
    });

    it(`dashboard in ${theme}`, async () => {
      const p = await harness.open('dashboard', { theme, reply: { type: 'init', model: dashboardModel() }, viewport: { width: 1280, height: 900 } });
      await p.page.locator('#tasks tr[data-task=T2] td.title').click();
      await p.page.evaluate('window.scrollTo(0, 0)');
      await p.settle(150);
      await p.page.screenshot({ path: join(await p.screenshot(`dashboard-${theme}`), '..', `dashboard-${theme}-full.png`), fullPage: true });
      const worst = await worstContrast(p, [
        'h1',
        'h2',
        '.step-name',
        '.step-times',
        '.visit .what',
        '.visit .reason',
        '.preconditions li > span',
        '.preconditions .reasons li',
        '#tasks td',
        '#handoffs td',
        '.finding-body div',
        '.breaker p',
        '.breaker li',
        '.chip',
      ]);
      assert.ok(worst.ratio >= MIN_CONTRAST, `lowest contrast ${worst.ratio.toFixed(2)} for ${worst.selector} "${worst.text}"`);
      await p.finish();
    });
  }
});
