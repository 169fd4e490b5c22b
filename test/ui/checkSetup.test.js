'use strict';
/**
 * UI test of what a new user meets first (issue 49), in a real VS Code (code-server in headless
 * chromium, driven with playwright-core), on a copy of sample/ that is no git repository and
 * has no chat model connected:
 *
 *   node --test test/ui/checkSetup.test.js
 *
 * Loom: Check Setup lists each thing a first run needs with ✓ or ✗ and the fix under a missing
 * one (no chat model, no git repository); the walkthrough's picture of it is the quick pick
 * (test-results/walkthrough/check-setup.png, copied to media/walkthrough/). In the Loom view, the
 * human-approval gate `tags` waits at reads "waiting for your approval", never "running · since".
 */
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('path');
const { ROOT, WAIT, openLoomView, runCommand, treeRow, withWorkbench } = require('./workbench');

const SAMPLE = path.join(ROOT, 'sample');

test('Check Setup names what is missing with its fix; a gate waiting for the person says so in the tree', { timeout: 300_000 }, async (t) => {
  await withWorkbench(t, SAMPLE, { 'loom.models.vendor': 'no-such-vendor' }, async (page, { shot, crop }) => {
    const view = await openLoomView(page);
    const tags = treeRow(page, view, 'tags');
    await tags.waitFor(WAIT);
    await tags.click();
    await page.keyboard.press('ArrowRight');
    const gate = treeRow(page, view, 'brainstorming');
    await gate.waitFor(WAIT);
    const row = await gate.innerText();
    assert.match(row, /waiting for your approval · since/);
    assert.doesNotMatch(row, /running/);

    await runCommand(page, 'Loom: Check Setup');
    const quickInput = page.locator('.quick-input-widget');
    const model = quickInput.locator('.monaco-list-row', { hasText: 'A chat model for Loom' }).first();
    await model.waitFor(WAIT);
    assert.match(await model.innerText(), /no chat model is available to Loom from vendor "no-such-vendor"/);
    assert.match(await model.innerText(), /Install and sign in to a language model provider/);
    const git = quickInput.locator('.monaco-list-row', { hasText: 'A git repository' }).first();
    await git.waitFor(WAIT);
    assert.match(await git.innerText(), /not in a git repository/);
    assert.match(await quickInput.locator('.quick-input-title').innerText(), /Loom: Check Setup — \d+ things are missing/);
    await shot('check-setup');
    await crop('check-setup', quickInput, { pad: 8 });
    await page.keyboard.press('Escape');
  });
});
