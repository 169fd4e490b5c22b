'use strict';
/**
 * UI smoke test: what a person sees, end to end, in a real VS Code (code-server 1.139 in headless
 * chromium, driven with playwright-core).
 *
 *   npm run test:ui
 *
 * Opens a copy of sample/ with the extension loaded the way `npm start` loads it (linked into a
 * private extensions dir, no smoke-test driver, so notification toasts show), opens the Loom view
 * from the activity bar, checks the three sample specs, selects `tags`, runs "Loom: Advance" from
 * the command palette, confirms, and checks that pipeline.state.json moved to detail-expansion and
 * that the toast and the tree say so. A second test opens a loom repository without specs, presses
 * the welcome's New Feature button, names the feature and checks that the tree replaces the
 * welcome with the new spec. Screenshots: test-results/ui-*.png.
 *
 * Environment: LOOM_TEST_SKIP_BUILD=1 skips the build; LOOM_UI_KEEP=1 keeps the temp dir.
 */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');

const { RESULTS, WAIT, openLoomView, runCommand, treeRow, withWorkbench } = require('./workbench');

const ROOT = path.resolve(__dirname, '..', '..');
const SAMPLE = path.join(ROOT, 'sample');
// A loom repository without specs yet (.loom/workflow.yaml and an empty specs/).
const EMPTY = path.join(ROOT, 'test', 'fixtures', 'workspace-chat');
const TAGS_DIR = path.join('specs', '2026-11-28+tags');
const SPECS = ['todo-crud', 'due-dates', 'tags'];

for (const f of fs.existsSync(RESULTS) ? fs.readdirSync(RESULTS) : []) if (/^ui-(\d|failure|code-server|welcome|review)/.test(f)) fs.rmSync(path.join(RESULTS, f)); // this file's old output

test('Loom view, Advance from the palette refused at the gate, its Approve button, confirmation, state on disk', { timeout: 180_000 }, async (t) => {
  // A quick pick confirmation can be driven from the keyboard like the rest of the workbench.
  await withWorkbench(t, SAMPLE, { 'loom.confirmation': 'quickPick' }, async (page, { workspace, shot }) => {
    const view = await openLoomView(page);
    const row = (label) => treeRow(page, view, label);
    for (const label of SPECS) await row(label).waitFor(WAIT);
    await shot('1-loom-view');
    for (const label of SPECS) assert.equal(await row(label).locator('.label-name').innerText(), label);
    assert.match(await row('tags').innerText(), /brainstorming/);

    // Select `tags`, then Loom: Advance from the command palette. Brainstorming is a human-approval
    // gate, which Advance never passes (loom 3's `run --advance` refuses it too): the refusal says so
    // and offers Approve as its button.
    await row('tags').click();
    await page.waitForFunction(() => document.querySelector('.customview-tree .monaco-list-row.selected')?.textContent?.includes('tags'), null, WAIT);
    // The row's own buttons are what the actor would take: Approve at this gate, no Advance.
    const buttons = row('tags').locator('.actions .action-label');
    await buttons.first().waitFor(WAIT);
    const titles = await buttons.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? ''));
    assert.ok(titles.some((x) => /Approve/.test(x)) && !titles.some((x) => /Advance/.test(x)), `the row's buttons: ${titles.join(', ')}`);
    const quickInput = page.locator('.quick-input-widget');
    const stateFile = path.join(workspace, TAGS_DIR, 'pipeline.state.json');
    const stateBefore = fs.readFileSync(stateFile, 'utf8');
    await runCommand(page, 'Loom: Advance', undefined, () => shot('2-palette'));
    const refusal = page.locator('.notification-toast', { hasText: 'tags is at brainstorming, a human-approval gate: Advance does not pass it' }).first();
    await refusal.waitFor(WAIT);
    await shot('3-gate-refusal');
    assert.equal(fs.readFileSync(stateFile, 'utf8'), stateBefore, 'a refusal writes nothing');
    await refusal.locator('.monaco-button', { hasText: /^Approve$/ }).click();

    // The confirmation (loom.confirmation = quickPick): its first item is "Approve".
    await quickInput.locator('.quick-input-title', { hasText: /Approve brainstorming of tags and move it to detail-expansion\?/ }).waitFor(WAIT);
    await quickInput.locator('.monaco-list-row', { hasText: 'Approve' }).first().waitFor(WAIT);
    await shot('3-confirmation');
    // A notification's button, closing, may hand the keyboard back to the workbench; when that lands
    // after the confirmation opened, Enter would go elsewhere. A person sees where the cursor is and
    // clicks into the box first; the highlighted item stays "Approve".
    const box = quickInput.locator('input');
    if (!(await box.evaluate((el) => el === document.activeElement))) await box.click();
    await page.keyboard.press('Enter');

    // On disk, in the toast and in the tree.
    const toast = page.locator('.notification-toast', { hasText: 'tags: brainstorming → detail-expansion' });
    await toast.first().waitFor(WAIT);
    const state = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
    assert.equal(state.current_stage, 'detail-expansion');
    assert.deepEqual(
      state.stage_history.map((h) => [h.stage, h.status, h.approval]),
      [['brainstorming', 'passed', 'user_confirmed']],
    );
    await page.waitForFunction(
      () => [...document.querySelectorAll('.customview-tree .monaco-list-row')].some((r) => r.querySelector('.label-name')?.textContent === 'tags' && r.textContent.includes('detail-expansion')),
      null,
      WAIT,
    );
    // Let the toast finish fading in, so the screenshot shows it.
    await toast.first().evaluate((el) =>
      Promise.all(
        el
          .closest('.notification-toast-container, .notification-toast')
          ?.getAnimations({ subtree: true })
          .map((a) => a.finished) ?? [],
      ),
    );
    await shot('4-advanced');
  });
});

test("an empty workspace: the welcome's New Feature button, the name, the new spec in the tree", { timeout: 180_000 }, async (t) => {
  await withWorkbench(t, EMPTY, {}, async (page, { workspace, shot }) => {
    const view = await openLoomView(page);
    const button = page.locator('.welcome-view-content a.monaco-button', { hasText: 'New Feature' }).first();
    await button.waitFor(WAIT);
    await shot('welcome-1-empty');
    await button.click();
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.locator('input').waitFor(WAIT);
    await quickInput.locator('input').fill('tags'); // fill, not type: typed keys can arrive before the box has focus
    // The input box says where the spec goes before anything is written.
    await quickInput.locator('.quick-input-message', { hasText: /Creates specs\/\d{4}-\d\d-\d\d\+tags\// }).waitFor(WAIT);
    await page.keyboard.press('Enter');

    // The welcome gives way to the tree, with the new spec selected at brainstorming.
    const row = treeRow(page, view, 'tags');
    await row.waitFor(WAIT);
    await page.locator('.welcome-view-content').waitFor({ state: 'hidden', ...WAIT });
    assert.match(await row.innerText(), /brainstorming · 0 of 13 stages done/);
    await page.waitForFunction(() => document.querySelector('.customview-tree .monaco-list-row.selected')?.textContent?.includes('tags'), null, WAIT);
    const specs = fs.readdirSync(path.join(workspace, 'specs')).filter((d) => !d.startsWith('.'));
    assert.equal(specs.length, 1);
    assert.match(specs[0], /^\d{4}-\d\d-\d\d\+tags$/);
    assert.equal(JSON.parse(fs.readFileSync(path.join(workspace, 'specs', specs[0], 'pipeline.state.json'), 'utf8')).current_stage, 'brainstorming');
    await shot('welcome-2-created');
  });
});

test('a review comment through the editor gutter: the + on a line of spec.md, the text, Add Comment, review-comments.json', { timeout: 180_000 }, async (t) => {
  await withWorkbench(t, SAMPLE, { 'loom.review.author': 'Mei' }, async (page, { workspace, shot }) => {
    const view = await openLoomView(page);
    await treeRow(page, view, 'tags').waitFor(WAIT);
    // Open the tags spec.md from Quick Open, as a person would.
    await page.keyboard.press('Control+P');
    const quickInput = page.locator('.quick-input-widget');
    await quickInput.locator('input').waitFor(WAIT);
    await quickInput.locator('input').fill('2026-11-28+tags/spec.md');
    await quickInput.locator('.monaco-list-row', { hasText: 'spec.md' }).first().waitFor(WAIT);
    await page.keyboard.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-line', { hasText: '待办多了以后需要分类' }).waitFor(WAIT);

    // Hovering line 7 in the gutter shows the comment "+" beside its number; clicking it opens a new thread there.
    const number = editor.locator('.margin-view-overlays .line-numbers', { hasText: /^7$/ }).first();
    // Monaco redraws its lines while the editor settles: take the box of the line as it is drawn now.
    let at = null;
    for (let i = 0; i < 100 && !at; i++) {
      await number.waitFor({ state: 'visible', ...WAIT });
      at = await number.boundingBox();
      if (!at) await page.waitForTimeout(100);
    }
    assert.ok(at, 'line 7 of spec.md is drawn');
    const glyph = { x: at.x + at.width + 8, y: at.y + at.height / 2 };
    const widget = page.locator('.review-widget').first();
    // The + appears under the pointer once the editor has its commenting ranges; click it when it does.
    // A click toggles the thread, so each click gets 10 s to open it before the next: on a busy
    // machine the widget comes seconds after the click, and a second click would close it again.
    for (let attempt = 0; attempt < 8 && !(await widget.isVisible()); attempt++) {
      await page.mouse.move(glyph.x - 30, glyph.y);
      await page.mouse.move(glyph.x, glyph.y);
      await editor
        .locator('.comment-range-glyph.comment-diff-added, .comment-range-glyph.line-hover')
        .first()
        .waitFor({ timeout: 3000 })
        .catch(() => {});
      await page.mouse.click(glyph.x, glyph.y);
      await widget.waitFor({ timeout: 10000 }).catch(() => {});
    }
    const box = widget.locator('.comment-form .monaco-editor').first();
    await box.waitFor(WAIT);
    await box.click();
    await page.keyboard.type('Name the three example tags in English too.');
    await shot('review-1-new-comment');
    await widget.locator('.monaco-button, a.monaco-button', { hasText: 'Add Comment' }).first().click();

    const file = path.join(workspace, TAGS_DIR, 'review-comments.json');
    const stored = await (async () => {
      for (let i = 0; i < 600; i++) {
        if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('review-comments.json was not written');
    })();
    assert.equal(stored.threads.length, 1);
    const [thread] = stored.threads;
    assert.deepEqual([thread.file, thread.line, thread.status, thread.comments[0].author, thread.comments[0].body], ['spec.md', 7, 'open', 'Mei', 'Name the three example tags in English too.']);
    assert.equal(thread.quote, fs.readFileSync(path.join(workspace, TAGS_DIR, 'spec.md'), 'utf8').split('\n')[6]);
    // The stored thread is shown in the editor with its author, and the tree counts it.
    await widget.locator('.review-comment .author', { hasText: 'Mei' }).first().waitFor(WAIT);
    await page.waitForFunction(
      () => [...document.querySelectorAll('.customview-tree .monaco-list-row')].some((r) => r.querySelector('.label-name')?.textContent === 'tags' && r.textContent.includes('1 open comment thread')),
      null,
      WAIT,
    );
    await shot('review-2-stored');
  });
});
