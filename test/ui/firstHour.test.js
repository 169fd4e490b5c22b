'use strict';
/**
 * UI test of a new user's first hour, in a real VS Code (code-server in headless chromium, driven
 * with playwright-core), on copies of sample/ and of a loom repository without specs, with the
 * default settings (Advance asks in a modal dialog):
 *
 *   node --test test/ui/firstHour.test.js
 *
 * The status bar shows a spec before anything is clicked; the Getting Started walkthrough opens
 * with its steps; a spec at executing offers its Tasks one click from its row, and the expanded
 * rows survive hiding and showing the side bar (Ctrl+B); the dashboard opens; the traceability
 * matrix at the default editor width shows every column; Advance asks before leaving
 * brainstorming; New Feature writes spec.md from the template and opens it; Advance refuses the
 * untouched template, naming its placeholder, offers "Create requirements.json" with a skeleton,
 * and moves on once both are filled in. sample/ itself is never written.
 *
 * Screenshots: test-results/ui-fh-*.png. The walkthrough's and the README's pictures
 * (media/walkthrough/*.png) are the parts of them each step is about: test-results/walkthrough/.
 */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const { createHash } = require('crypto');
const { ROOT, RESULTS, WAIT, openLoomView, runCommand, treeRow, withWorkbench } = require('./workbench');

const SAMPLE = path.join(ROOT, 'sample');
const EMPTY = path.join(ROOT, 'test', 'fixtures', 'workspace-chat');

for (const f of fs.existsSync(RESULTS) ? fs.readdirSync(RESULTS) : []) if (/^ui-fh-/.test(f)) fs.rmSync(path.join(RESULTS, f)); // this file's old output
fs.rmSync(path.join(RESULTS, 'walkthrough'), { recursive: true, force: true });

/** sha256 over every file of sample/: the first hour plays on copies and leaves it as it was. */
function sampleDigest(dir = SAMPLE, hash = createHash('sha256')) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) sampleDigest(abs, hash);
    else hash.update(`${path.relative(SAMPLE, abs)}\0`).update(fs.readFileSync(abs));
  }
  return dir === SAMPLE ? hash.digest('hex') : hash;
}
const sampleBefore = sampleDigest();

/** The modal dialog VS Code shows for a confirmation (the default `loom.confirmation`). */
const dialog = (page) => page.locator('.monaco-dialog-box');

/** The document inside the visible webview (VS Code nests the page in two iframes). */
const webview = (page) => page.frameLocator('iframe.webview.ready').last().frameLocator('#active-frame');

test('the first hour in a loom repository: status bar, walkthrough, Tasks, expansion kept, dashboard, matrix, Advance', { timeout: 300_000 }, async (t) => {
  await withWorkbench(t, SAMPLE, {}, async (page, { workspace, shot, crop }) => {
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
    // The pictures of the view with the side bar wide enough for its rows' words; back to the default after.
    const sidebar = page.locator('.part.sidebar');
    const defaultWidth = await resizeSideBar(page, 470);
    await crop('loom-view', sidebar, { height: 150 });

    // A spec at executing: its Tasks one click from the spec row.
    await row('due-dates').click();
    await row('Tasks').waitFor(WAIT);
    assert.match(await row('Tasks').innerText(), /\d of 4 done/);
    await row('Tasks').click();
    for (const id of ['T1', 'T2', 'T3', 'T4']) await row(id).waitFor(WAIT);
    await shot('fh-3-tasks');
    await crop('tasks', sidebar, { height: 400 });
    await resizeSideBar(page, defaultWidth);

    // Hide and show the side bar: the rows stay expanded.
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
    await webview(page).locator('#next .transition').first().waitFor(WAIT);
    await shot('fh-5-dashboard');
    const editorPart = page.locator('.part.editor');
    await crop('dashboard', editorPart, { height: 560 });
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
    // A test reads as its file's name over its test's name, whole path and name on hover (it was cut to "parseDu" / "eDate.…").
    const test = matrix.locator('.row.behavior', { hasText: 'REQ-001-B01' }).locator('.c-tests a.file-link');
    assert.deepEqual(await test.locator('.ref-line').allTextContents(), ['parseDueDate', '合法的 YYYY-MM-DD 被接受并原样保存']);
    assert.equal(await test.getAttribute('title'), 'tests/due/parseDueDate.test.js › REQ-001-B01 合法的 YYYY-MM-DD 被接受并原样保存');
    const fileLine = await test.locator('.ref-file').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    assert.ok(fileLine.scroll <= fileLine.client, `parseDueDate is not cut by its column (${fileLine.scroll} > ${fileLine.client})`);
    const statusCell = matrix.locator('.row.behavior .c-status').first();
    assert.match(await statusCell.getAttribute('title'), /^status: [a-z_]+$/, 'the raw status on hover');
    await shot('fh-6-matrix');
    await crop('matrix', editorPart, { height: 520 });
    await runCommand(page, 'View: Close All Editors');

    // Brainstorming is a human-approval gate: Approve (never Advance, which the actor refuses there) asks
    // before leaving it, in the dialog the default setting gives (loom.confirmation: modal); Cancel leaves everything as it was.
    const tagsState = path.join(workspace, 'specs', '2026-11-28+tags', 'pipeline.state.json');
    const tagsBefore = fs.readFileSync(tagsState, 'utf8');
    await row('tags').click();
    await page.waitForFunction(() => document.querySelector('.customview-tree .monaco-list-row.selected')?.textContent?.includes('tags'), null, WAIT);
    await runCommand(page, 'Loom: Approve');
    await dialog(page)
      .locator('.dialog-message-text', { hasText: /Approve brainstorming of tags and move it to detail-expansion\?|Leave brainstorming of tags/ })
      .waitFor(WAIT);
    assert.match(await dialog(page).innerText(), /Approving records the sha256 of spec\.md; a later change needs re-approval\./);
    await shot('fh-7-advance');
    await crop('advance', dialog(page), { pad: 12 });
    await dialog(page).locator('.monaco-button', { hasText: 'Cancel' }).click();
    await dialog(page).waitFor({ state: 'hidden', ...WAIT });
    assert.equal(fs.readFileSync(tagsState, 'utf8'), tagsBefore, 'Cancel writes nothing');

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
  await withWorkbench(t, EMPTY, {}, async (page, { workspace, shot, crop }) => {
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
    const created = page.locator('.notification-toast', { hasText: 'Created specs/' }).first();
    await created.locator('.monaco-button', { hasText: 'Draft with @loom /brainstorm' }).waitFor(WAIT);
    await crop('brainstorm', created, { pad: 12 });

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

test('New Feature → Approve on the untouched template is refused at its placeholder → filled in, it moves on; sample/ is never written', { timeout: 300_000 }, async (t) => {
  await withWorkbench(t, SAMPLE, {}, async (page, { workspace, shot, crop }) => {
    const view = await openLoomView(page);
    await treeRow(page, view, 'tags').waitFor(WAIT);
    await runCommand(page, 'Loom: New Feature');
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.locator('input').waitFor(WAIT);
    await quickInput.locator('input').fill('csv export');
    await page.keyboard.press('Enter');
    await treeRow(page, view, 'csv-export').waitFor(WAIT);
    const specDir = fs.readdirSync(path.join(workspace, 'specs')).find((d) => d.endsWith('+csv-export'));
    const dir = path.join(workspace, 'specs', specDir);

    // spec.md opens with its places to fill marked TODO.
    const editor = page.locator('.editor-instance .view-lines');
    await editor.locator('.view-line', { hasText: 'TODO: What the user needs, and why now.' }).first().waitFor(WAIT);
    await shot('fh-10-new-feature');
    await crop('new-feature', page.locator('.part.editor'), { height: 520 });
    await runCommand(page, 'Notifications: Clear All Notifications');

    // Brainstorming is a human-approval gate, so its way on is Approve (Advance is refused there).
    // Approve on the untouched template: refused, naming the placeholder; nothing written.
    const specText = fs.readFileSync(path.join(dir, 'spec.md'), 'utf8');
    const todoLine = specText.split('\n').findIndex((l) => l.startsWith('TODO: ')) + 1;
    const stateBefore = fs.readFileSync(path.join(dir, 'pipeline.state.json'), 'utf8');
    await runCommand(page, 'Loom: Approve');
    const refusal = page.locator('.notification-toast', { hasText: 'csv-export cannot move from brainstorming to detail-expansion' }).first();
    await refusal.waitFor(WAIT);
    assert.match(await refusal.innerText(), new RegExp(`spec\\.md line ${todoLine} still holds the placeholder TODO`));
    await shot('fh-11-refused-placeholder');
    assert.equal(fs.readFileSync(path.join(dir, 'pipeline.state.json'), 'utf8'), stateBefore, 'a refusal writes nothing');
    await runCommand(page, 'Notifications: Clear All Notifications');

    // The user fills in spec.md: every TODO line replaced with their words, then saved.
    await replaceAllInEditor(page, 'TODO: ', '');
    await page.keyboard.press('Control+S');
    await waitUntil(() => !fs.readFileSync(path.join(dir, 'spec.md'), 'utf8').includes('TODO'), 'spec.md saved without a placeholder');

    // Approve again: requirements.json is missing, and the refusal offers to create it, as a skeleton.
    await runCommand(page, 'Loom: Approve');
    const missing = page.locator('.notification-toast', { hasText: 'requirements.json does not exist' }).first();
    await missing.waitFor(WAIT);
    await missing.locator('.monaco-button', { hasText: 'Create requirements.json' }).click();
    await page.locator('.tab', { hasText: 'requirements.json' }).first().waitFor(WAIT);
    await editor.locator('.view-line', { hasText: '"id": "REQ-001-B01"' }).first().waitFor(WAIT);
    await editor.locator('.view-line', { hasText: 'TODO: the behavior in one sentence' }).first().waitFor(WAIT);
    await shot('fh-12-requirements-skeleton');
    await replaceAllInEditor(page, 'TODO: ', '');
    await page.keyboard.press('Control+S'); // an unsaved editor with its path: saved there, without a dialog
    const saved = () => {
      try {
        return JSON.parse(fs.readFileSync(path.join(dir, 'requirements.json'), 'utf8'));
      } catch {
        return undefined; // not there yet, or still being written
      }
    };
    await waitUntil(() => saved() && !JSON.stringify(saved()).includes('TODO'), 'requirements.json saved');
    const requirements = saved();
    assert.equal(requirements.requirements[0].behaviors[0].category, 'happy-path');
    await runCommand(page, 'Notifications: Clear All Notifications');

    // Filled in: Approve asks, and the spec moves on.
    await runCommand(page, 'Loom: Approve');
    await dialog(page)
      .locator('.dialog-message-text', { hasText: /Approve brainstorming of csv-export and move it to detail-expansion\?/ })
      .waitFor(WAIT);
    await shot('fh-13-advance-filled');
    await dialog(page)
      .locator('.monaco-button', { hasText: /^Approve$/ })
      .click();
    await page.locator('.notification-toast', { hasText: 'csv-export: brainstorming → detail-expansion' }).first().waitFor(WAIT);
    const state = JSON.parse(fs.readFileSync(path.join(dir, 'pipeline.state.json'), 'utf8'));
    assert.equal(state.current_stage, 'detail-expansion');
    assert.deepEqual(
      state.stage_history.map((h) => [h.stage, h.status, h.approval]),
      [['brainstorming', 'passed', 'user_confirmed']],
    );
    await shot('fh-14-moved-on');
  });
  assert.equal(sampleDigest(), sampleBefore, 'sample/ is as it was: the first hour played on copies');
});

/** Drags the sash on the side bar's edge so the side bar is `width` wide; returns its width before. */
async function resizeSideBar(page, width) {
  const box = await page.locator('.part.sidebar').boundingBox();
  const edge = box.x + box.width;
  await page.mouse.move(edge, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(edge + (width - box.width) / 2, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + width, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction((w) => Math.abs(document.querySelector('.part.sidebar').getBoundingClientRect().width - w) <= 2, width, WAIT);
  return box.width;
}

/** Edit → Replace in the active editor: every `find` becomes `replacement`, as a person does with Ctrl+H. */
async function replaceAllInEditor(page, find, replacement) {
  await page.locator('.editor-instance .monaco-editor').first().click();
  await page.keyboard.press('Control+H');
  const widget = page.locator('.find-widget.visible');
  await widget.waitFor(WAIT);
  await widget.locator('.find-part textarea, .find-part input').first().fill(find);
  await widget.locator('.replace-part textarea, .replace-part input').first().fill(replacement);
  // Replace All (Ctrl+Alt+Enter in the replace box), then wait until no match is left.
  await page.keyboard.press('Control+Alt+Enter');
  await widget.locator('.matchesCount', { hasText: /^No results$/ }).waitFor(WAIT);
  await page.keyboard.press('Escape');
}

/** Polls the disk until `check` holds: a save reaches it a moment after the key press. */
async function waitUntil(check, what) {
  for (let i = 0; i < 300; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
