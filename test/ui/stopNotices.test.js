'use strict';
/**
 * UI test of where a stopped run leaves the person (issue 44, item 5), in a real VS Code
 * (code-server in headless chromium, driven with playwright-core), on a copy of sample/:
 *
 *   node --test test/ui/stopNotices.test.js
 *
 * `tags` has its brainstorming files written and only the approval missing. Loom: Run Pipeline
 * (Autopilot) stops there without asking a model, and every surface says so at once: the
 * notification with its one action, the spec's row in the Loom view ("waiting for you since
 * 14:02"), the status bar ("Loom: tags needs you · brainstorming") and the dashboard's run panel
 * ("Needs you at brainstorming since 14:02"). The sample is half Chinese: the dashboard shows its
 * requirements in CJK, which needs fonts-noto-cjk (test/vscode/setup.sh).
 *
 * Screenshots: test-results/ui-stop-notices.png (the whole window: row, status bar, run panel,
 * notification) and ui-stop-notices-cjk.png (the same with the sample's Chinese spec.md open).
 */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { ROOT, RESULTS, WAIT, openLoomView, runCommand, treeRow, withWorkbench } = require('./workbench');

const SAMPLE = path.join(ROOT, 'sample');
const SINCE = /waiting for you since (\d\d:\d\d|\d{4}-\d\d-\d\d \d\d:\d\d)/;

for (const f of fs.existsSync(RESULTS) ? fs.readdirSync(RESULTS) : []) if (/^ui-stop-notices/.test(f)) fs.rmSync(path.join(RESULTS, f)); // this file's old output

/** The document inside the visible webview (VS Code nests the page in two iframes). */
const webview = (page) => page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');

test('a stopped run: the notification, the tree row, the status bar and the dashboard say where and since when', { timeout: 300_000 }, async (t) => {
  await withWorkbench(t, SAMPLE, { 'loom.pipelineRun.mode': 'autopilot' }, async (page, { shot }) => {
    // Room for the row's whole description: no chat beside the editor, a wider side bar.
    await runCommand(page, 'View: Toggle Secondary Side Bar Visibility');
    const view = await openLoomView(page);
    const sidebar = await page.locator('.part.sidebar').boundingBox();
    await page.mouse.move(sidebar.x + sidebar.width + 1, sidebar.y + 200);
    await page.mouse.down();
    await page.mouse.move(sidebar.x + 560, sidebar.y + 200, { steps: 5 });
    await page.mouse.up();
    const row = treeRow(page, view, 'tags');
    await row.waitFor(WAIT);
    await row.click();
    await page.waitForFunction(() => document.querySelector('.customview-tree .monaco-list-row.selected')?.textContent?.includes('tags'), null, WAIT);
    await runCommand(page, 'Loom: Run Pipeline');

    // The notification, with the one action that continues. On a busy machine the row's selection
    // can reach the extension host after the command has run: it then asks which spec, as it
    // would ask a person, and the test answers as one would.
    const toast = page.locator('.notification-toast', { hasText: 'tags needs you at brainstorming' }).first();
    const specPick = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'tags' }).first();
    await toast.or(specPick).first().waitFor(WAIT);
    if (!(await toast.isVisible())) {
      await page.keyboard.type('tags');
      await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'tags' }).first().waitFor(WAIT);
      await page.keyboard.press('Enter');
    }
    await toast.waitFor(WAIT);
    assert.match(await toast.innerText(), /ready for your approval/);
    await toast.locator('.monaco-button', { hasText: 'Approve and Continue' }).first().waitFor(WAIT);

    // The tree row and the status bar, with the same time.
    await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('.customview-tree .monaco-list-row.selected')?.textContent ?? ''), SINCE.source, WAIT);
    const since = SINCE.exec(await row.innerText())[1];
    const status = page.locator('.statusbar-item', { hasText: 'Loom: tags needs you · brainstorming' }).first();
    await status.waitFor(WAIT);
    assert.match(await status.getAttribute('aria-label'), new RegExp(`tags waits for you at brainstorming since ${since}`));

    // The dashboard's run panel says the same.
    await runCommand(page, 'Loom: Open Dashboard');
    const panel = webview(page).locator('#pipeline-run');
    await panel.waitFor(WAIT);
    await panel.scrollIntoViewIfNeeded();
    assert.match(await panel.innerText(), new RegExp(`Needs you at brainstorming since (\\d{4}-\\d\\d-\\d\\d )?${since}`));
    await panel.locator('[data-reason="approval-gate"]').waitFor(WAIT);
    await shot('stop-notices');
    // The notices are English here; the sample's spec.md beside them is Chinese, rendered only with a CJK font (look at the picture).
    await page.keyboard.press('Control+P');
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.locator('input').fill('specs/2026-11-28+tags/spec.md');
    await quickInput.locator('.monaco-list-row.focused', { hasText: 'spec.md' }).first().waitFor(WAIT);
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .view-lines', { hasText: '待办事项标签' }).first().waitFor(WAIT);
    await shot('stop-notices-cjk');
  });
});
