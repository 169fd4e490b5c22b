'use strict';
/**
 * UI test of a new user's first hour, in a real VS Code (code-server in headless chromium, driven
 * with playwright-core), on a copy of sample/ and on a loom repository without specs:
 *
 *   node --test test/ui/firstHour.test.js
 *
 * The status bar shows a spec before anything is clicked; the Getting Started walkthrough opens
 * with its steps; a spec at executing offers its Tasks one click from its row, and the expanded
 * rows survive hiding and showing the side bar (Ctrl+B); the dashboard opens; the traceability
 * matrix at the default editor width shows every column; Advance asks before leaving
 * brainstorming; New Feature writes spec.md from the template and opens it. Screenshots:
 * test-results/ui-fh-*.png (the walkthrough's and the README's pictures are taken from them).
 */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { ROOT, RESULTS, WAIT, openLoomView, runCommand, treeRow, withWorkbench } = require('./workbench');

const SAMPLE = path.join(ROOT, 'sample');
const EMPTY = path.join(ROOT, 'test', 'fixtures', 'workspace-chat');

for (const f of fs.existsSync(RESULTS) ? fs.readdirSync(RESULTS) : []) if (/^ui-fh-/.test(f)) fs.rmSync(path.join(RESULTS, f)); // this file's old output

/** The document inside the visible webview (VS Code nests the page in two iframes). */
const webview = (page) => page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');

test('the first hour in a loom repository: status bar, walkthrough, Tasks, expansion kept, dashboard, matrix, Advance', { timeout: 300_000 }, async (t) => {
  await withWorkbench(t, SAMPLE, { 'loom.confirmation': 'quickPick' }, async (page, { shot }) => {
    // From the start, before anything is selected: the most relevant spec (the one in progress that changed last).
    const status = page.locator('.statusbar-item', { hasText: /brainstorming 0\/13/ }).first();
    await status.waitFor(WAIT);
    assert.match(await status.getAttribute('aria-label'), /brainstorming/);

    // The walkthrough, from the palette as a user finds it.
    await runCommand(page, 'Welcome: Open Walkthrough...', 'Get started with Loom');
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.locator('h2', { hasText: 'Get started with Loom' }).first().waitFor(WAIT);
    for (const step of [
      'Open the Loom view',
      'Create a feature',
      'Draft it with @loom /brainstorm',
      'Advance through the stages',
      'Open the dashboard',
      'Check the traceability matrix',
      'Run the tasks',
    ]) {
      await walkthrough.locator('.getting-started-step', { hasText: step }).first().waitFor(WAIT);
    }
    await shot('fh-1-walkthrough');
    await runCommand(page, 'View: Close All Editors');

    const view = await openLoomView(page);
    const row = (label) => treeRow(page, view, label);
    await row('due-dates').waitFor(WAIT);
    assert.match(await row('due-dates').innerText(), /executing · 6 of 13 stages done/);
    await shot('fh-2-loom-view');

    // A spec at executing: its Tasks one click from the spec row.
    await row('due-dates').click();
    await row('Tasks').waitFor(WAIT);
    assert.match(await row('Tasks').innerText(), /\d of 4 done/);
    await row('Tasks').click();
    for (const id of ['T1', 'T2', 'T3', 'T4']) await row(id).waitFor(WAIT);
    await shot('fh-3-tasks');

    // Hide and show the side bar: the rows stay expanded.
    const sidebar = page.locator('.part.sidebar');
    await page.keyboard.press('Control+B');
    await sidebar.waitFor({ state: 'hidden', ...WAIT });
    await page.keyboard.press('Control+B');
    await sidebar.waitFor({ state: 'visible', ...WAIT });
    for (const id of ['Tasks', 'T1', 'T4']) await row(id).waitFor(WAIT);
    assert.equal(await row('Tasks').getAttribute('aria-expanded'), 'true');
    assert.equal(await row('due-dates').getAttribute('aria-expanded'), 'true');
    await shot('fh-4-after-sidebar-toggle');

    // The dashboard of the selected spec (the Tasks row belongs to due-dates).
    await runCommand(page, 'Loom: Open Dashboard');
    await webview(page).locator('body', { hasText: 'due-dates' }).first().waitFor(WAIT);
    await shot('fh-5-dashboard');
    await runCommand(page, 'View: Close All Editors');

    // The matrix at the default editor width: every column in sight, the toolbar on one line.
    await row('T1').click();
    await runCommand(page, 'Loom: Show Traceability');
    const matrix = webview(page);
    await matrix.locator('.row.behavior').first().waitFor(WAIT);
    const grid = await matrix.locator('#matrix-grid').boundingBox();
    for (const label of ['Behavior', 'Category', 'Status', 'Tasks', 'Tests', 'Evidence', 'Closed']) {
      const box = await matrix.locator('.header-row .cell', { hasText: new RegExp(`^${label}$`) }).boundingBox();
      assert.ok(box.x >= grid.x - 1 && box.x + box.width <= grid.x + grid.width + 1, `${label} is in sight (${box.x}+${box.width}, grid ${grid.x}+${grid.width})`);
    }
    for (const part of ['.title-line', '.filters']) {
      const box = await matrix.locator(part).boundingBox();
      assert.ok(box.height < 40, `${part} keeps to one line (${box.height}px)`);
    }
    const statusCell = matrix.locator('.row.behavior .c-status').first();
    assert.match(await statusCell.getAttribute('title'), /^status: [a-z_]+$/, 'the raw status on hover');
    await shot('fh-6-matrix');
    await runCommand(page, 'View: Close All Editors');

    // Advance asks before leaving brainstorming; Escape leaves everything as it was.
    await row('tags').click();
    await page.waitForFunction(() => document.querySelector('.customview-tree .monaco-list-row.selected')?.textContent?.includes('tags'), null, WAIT);
    await runCommand(page, 'Loom: Advance');
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.locator('.quick-input-title', { hasText: /Leave brainstorming of tags/ }).waitFor(WAIT);
    await shot('fh-7-advance');
    await page.keyboard.press('Escape');

    // Collapse All is remembered too: hiding and showing the side bar does not open the rows again.
    // The only view of its container: its actions are in the side bar's title.
    await sidebar.hover();
    await page.locator('.part.sidebar .title-actions .action-label[aria-label="Collapse All"]').first().click();
    await page.waitForFunction(() => !document.querySelector('.customview-tree .monaco-list-row[aria-expanded="true"]'), null, WAIT);
    await page.keyboard.press('Control+B');
    await sidebar.waitFor({ state: 'hidden', ...WAIT });
    await page.keyboard.press('Control+B');
    await sidebar.waitFor({ state: 'visible', ...WAIT });
    await row('In progress').waitFor(WAIT);
    await shot('fh-9-after-collapse-all');
    assert.equal(await view.locator('.monaco-list-row[aria-expanded="true"]').count(), 0, 'no row opened again');
  });
});

test('New Feature in an empty loom repository: spec.md from the template, opened, with @loom /brainstorm offered', { timeout: 180_000 }, async (t) => {
  await withWorkbench(t, EMPTY, {}, async (page, { workspace, shot }) => {
    const view = await openLoomView(page);
    const button = page.locator('.welcome-view-content a.monaco-button', { hasText: 'New Feature' }).first();
    await button.waitFor(WAIT);
    await button.click();
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.locator('input').waitFor(WAIT);
    await quickInput.locator('input').fill('csv export');
    await page.keyboard.press('Enter');

    await treeRow(page, view, 'csv-export').waitFor(WAIT);
    // spec.md opens in an editor with the template's sections and a REQ line.
    await page.locator('.tab', { hasText: 'spec.md' }).first().waitFor(WAIT);
    const editor = page.locator('.editor-instance .view-lines');
    await editor.locator('.view-line', { hasText: '## Requirements' }).first().waitFor(WAIT);
    await editor.locator('.view-line', { hasText: '### REQ-001' }).first().waitFor(WAIT);
    await page.locator('.notification-toast', { hasText: 'Created specs/' }).locator('.monaco-button', { hasText: 'Draft with @loom /brainstorm' }).first().waitFor(WAIT);

    const specs = fs.readdirSync(path.join(workspace, 'specs')).filter((d) => !d.startsWith('.'));
    assert.equal(specs.length, 1);
    const dir = path.join(workspace, 'specs', specs[0]);
    const spec = fs.readFileSync(path.join(dir, 'spec.md'), 'utf8');
    for (const section of ['## Background', '## Options considered', '## Requirements', '## Out of scope']) assert.ok(spec.includes(`\n${section}\n`), section);
    assert.match(spec, /^### REQ-001 /m);
    const state = JSON.parse(fs.readFileSync(path.join(dir, 'pipeline.state.json'), 'utf8'));
    assert.equal(state.current_stage, 'brainstorming');
    assert.equal(typeof state.loom_version, 'string');
    await shot('fh-8-new-feature');
  });
});
