import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WebviewHarness } from './support/harness';
import { matrixModel, pathIn } from './support/matrixModels';

const SPEC = 'specs/2026-11-29+login';
let harness: WebviewHarness;
before(async () => {
  harness = await WebviewHarness.start();
});
after(async () => {
  await harness?.close();
});

const text = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

/** The elements matching `selector` whose text does not fit them (an ellipsis or a clipped end), with their text. */
const cutTexts = (page: import('playwright-core').Page, selector: string): Promise<string[]> =>
  page.evaluate(
    `[...document.querySelectorAll(${JSON.stringify(selector)})].filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent + ' (' + c.scrollWidth + ' > ' + c.clientWidth + ')')`,
  );

/** Whether `shown` is `name` cut in its middle: its start, "…", and at least as much of its end. */
const middleCutOf = (name: string, shown: string) => {
  const [head, tail, extra] = shown.split('…');
  return extra === undefined && tail !== undefined && head.length >= 2 && tail.length >= head.length && name.startsWith(head) && name.endsWith(tail);
};

describe('matrix webview', () => {
  it('says ready, then renders rows grouped by requirement from the init message', async () => {
    const p = await harness.open('matrix');
    assert.deepEqual(await p.posted(), [{ type: 'ready', view: 'matrix', protocol: 2 }]);
    const model = matrixModel(20);
    await p.send({ type: 'init', model });
    const page = p.page;
    const closed = model.summary.closed;
    assert.equal(text(await page.locator('#counts').textContent()), `20 behaviors · ${closed} closed · ${20 - closed} open`);
    assert.equal(await page.locator('.grid-body .row.group').count(), 2);
    const first = page.locator('.grid-body .row.group').first();
    assert.match(text(await first.textContent()), new RegExp(`REQ-001 10 behaviors · ${model.requirements[0].closed} closed ✗ no behavior for: observability`));
    const b04 = page.locator('.row.behavior', { hasText: 'REQ-001-B04' });
    assert.equal(await b04.locator('.cell').nth(5).textContent(), '✗ no evidence');
    assert.match((await b04.locator('.cell').nth(5).getAttribute('class')) ?? '', /\bgap\b/);
    const b08 = page.locator('.row.behavior', { hasText: 'REQ-001-B08' });
    assert.equal(await b08.locator('.ref-missing').first().textContent(), 'T99', 'a task without a file is highlighted, not linked');
    const b09 = page.locator('.row.behavior', { hasText: 'REQ-001-B09' });
    assert.equal(await b09.locator('.cell').nth(4).locator('.ref-missing').count(), 1, 'a test file that does not exist is highlighted');
    assert.equal(await page.locator('[role=grid]').getAttribute('aria-rowcount'), String(20 + 2 + 1));
    assert.deepEqual(await p.cspViolations(), []);
    assert.deepEqual(p.errors, []);
    await p.finish();
  });

  it('shows a test only the feature worktree has in its own words, not as missing, with how loom would find it', async () => {
    const model = matrixModel(3);
    const ref = 'tests/auth/new.test.ts#logs in';
    const row = model.rows[0];
    row.tests = [{ ref, reason: 'only-in-worktree', path: pathIn(model, '.worktree/2026-11-29-login/tests/auth/new.test.ts'), recordAs: `.worktree/2026-11-29-login/${ref}` }];
    row.closed = false;
    const p = await harness.open('matrix', { reply: { type: 'init', model } });
    const cell = p.page.locator('.row.behavior', { hasText: row.behavior }).locator('.cell').nth(4);
    const shown = cell.locator('.ref-worktree');
    // The file's name over the note; the test's name and where it is are in the tooltip.
    assert.deepEqual(await shown.locator('.ref-line').allTextContents(), ['new', '(only in the feature worktree)']);
    assert.equal(await cell.locator('a.file-link').count(), 0, 'not a link to a file loom finds');
    assert.match(
      (await shown.getAttribute('title')) ?? '',
      /loom looks for tests in the spec directory and the repository root.*names it \.worktree\/2026-11-29-login\/tests\/auth\/new\.test\.ts#logs in/,
    );
    assert.deepEqual(p.errors, []);
    await p.finish();
  });

  it('filters by gaps, category, status, task and text, and the counts follow', async () => {
    const model = matrixModel(60);
    const closed = model.summary.closed;
    const p = await harness.open('matrix', { reply: { type: 'init', model } });
    const page = p.page;
    const counts = async () => text(await page.locator('#counts').textContent());
    assert.equal(await counts(), `60 behaviors · ${closed} closed · ${60 - closed} open`);

    await page.locator('#gaps-only').click();
    await p.settle(50);
    assert.equal(await counts(), `${60 - closed} of 60 behaviors · 0 closed · ${60 - closed} open`);
    assert.equal(await page.locator('.row.behavior:not(.open)').count(), 0, 'only open behaviors remain');
    // Every group header in one form, the toolbar's: "N of M behaviors · K closed" (or "M behaviors · K closed").
    for (const header of await page.locator('.grid-body .row.group .muted').allTextContents()) assert.match(header, /^(\d+ of )?\d+ behaviors? · \d+ closed$/);

    await page.locator('#filter-category').click();
    await page.locator('#filter-category').getByRole('option', { name: 'security', exact: true }).click();
    await p.settle(50);
    const behaviors = await page.locator('.row.behavior .c-category').allTextContents();
    assert.ok(behaviors.length > 0 && behaviors.every((c) => c === 'security'));
    assert.match(await counts(), new RegExp(`^${behaviors.length} of 60 behaviors`));

    await page.locator('#clear-filters').click();
    await p.settle(50);
    assert.equal(await counts(), `60 behaviors · ${closed} closed · ${60 - closed} open`);

    await page.locator('#search input').fill('number 17');
    await p.settle(300);
    assert.equal(await counts(), '1 of 60 behaviors · 0 closed · 1 open');
    assert.equal(await page.locator('.row.behavior').count(), 1);
    assert.equal(await page.locator('.row.group').count(), 1, 'only the requirement of the match keeps its header');
    await p.finish();
  });

  it('filters by task and by status through the saved filter', async () => {
    const state = { view: 'matrix' as const, specDir: SPEC, ui: { filter: { gapsOnly: false, category: '', status: 'passing', task: 'T4', text: '' }, scrollTop: 0, column: 0 } };
    const p = await harness.open('matrix', { state, reply: { type: 'init', model: matrixModel(60) } });
    const rows = p.page.locator('.row.behavior');
    const n = await rows.count();
    assert.ok(n > 0);
    for (let i = 0; i < n; i++) {
      assert.equal(await rows.nth(i).locator('.c-status').textContent(), 'Passing', 'a label in words');
      assert.equal(await rows.nth(i).locator('.c-status').getAttribute('title'), 'status: passing', 'the raw value on hover');
      assert.match((await rows.nth(i).locator('.cell').nth(3).textContent()) ?? '', /\bT4\b/);
    }
    assert.match(text(await p.page.locator('#counts').textContent()), new RegExp(`^${n} of 60`));
    await p.finish();
  });

  it('posts openFile for task, test (with its name), evidence and behavior links', async () => {
    const p = await harness.open('matrix', { reply: { type: 'init', model: matrixModel(20) } });
    const row = p.page.locator('.row.behavior', { hasText: 'REQ-001-B01' });
    await row.locator('a[data-link="tasks:0"]').click();
    await row.locator('a[data-link="tests:0"]').click();
    await row.locator('a[data-link="evidence:0"]').click();
    await row.locator('a[data-link="source"]').click();
    assert.deepEqual(await p.postedOf('openFile'), [
      { type: 'openFile', path: `${SPEC}/tasks/T1.md` },
      { type: 'openFile', path: 'tests/auth/login0.test.ts', testName: 'case 0' },
      { type: 'openFile', path: `${SPEC}/evidence/run-0.log` },
      { type: 'openFile', path: `${SPEC}/requirements.json`, line: 10 },
    ]);
    await p.finish();
  });

  it('moves the active cell with the arrow keys and opens it with Enter', async () => {
    const p = await harness.open('matrix', { reply: { type: 'init', model: matrixModel(20) } });
    const page = p.page;
    await page.locator('#matrix-grid').focus();
    await page.keyboard.press('ArrowDown');
    assert.match((await page.locator('.row.selected').textContent()) ?? '', /REQ-001-B01/);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.match((await page.locator('.row.selected').textContent()) ?? '', /REQ-001-B03/);
    await page.keyboard.press('ArrowUp');
    assert.match((await page.locator('.row.selected').textContent()) ?? '', /REQ-001-B02/);
    const active = await page.locator('#matrix-grid').getAttribute('aria-activedescendant');
    assert.equal(await page.locator(`#${active}`).count(), 1, 'aria-activedescendant names a cell in the DOM');

    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    assert.deepEqual(await p.postedOf('openFile'), [
      { type: 'openFile', path: `${SPEC}/requirements.json`, line: 22 },
      { type: 'openFile', path: `${SPEC}/tasks/T2.md` },
      { type: 'openFile', path: 'tests/auth/login1.test.ts', testName: 'case 1' },
    ]);
    // Skips the next requirement's header row on the way down.
    for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowDown');
    assert.match((await page.locator('.row.selected').textContent()) ?? '', /REQ-002-B01/);
    await p.finish();
  });

  it('keeps the DOM bounded at 5,000 behaviors and scrolls through all of them', async () => {
    const model = matrixModel(5000);
    const p = await harness.open('matrix', { reply: { type: 'init', model }, viewport: { width: 1200, height: 800 } });
    const page = p.page;
    const domRows = () => page.locator('.grid-body > .row').count();
    assert.equal(text(await page.locator('#counts').textContent()), `5000 behaviors · ${model.summary.closed} closed · ${5000 - model.summary.closed} open`);
    const initial = await domRows();
    assert.ok(initial > 10 && initial < 60, `rows in the DOM: ${initial}`);
    await page.locator('#matrix-grid').evaluate((el: { scrollTop: number; scrollHeight: number }) => {
      el.scrollTop = el.scrollHeight;
    });
    await p.settle(100);
    assert.ok((await domRows()) < 60);
    assert.equal(await page.locator('.row.behavior', { hasText: 'REQ-500-B10' }).count(), 1, 'the last behavior is reachable');
    // The header of the requirement being scrolled through is pinned: REQ-250-B05 is item 249 * 11 + 5.
    await page.locator('#matrix-grid').evaluate((el: { scrollTop: number }) => {
      el.scrollTop = (249 * 11 + 5) * 44; // ROW_HEIGHT: two lines a row
    });
    await p.settle(100);
    assert.match(text(await page.locator('.pin-wrap .row.group').textContent()), /^REQ-250 /);
    assert.ok((await domRows()) < 60);
    await page.locator('#matrix-grid').focus();
    await page.keyboard.press('ArrowDown');
    assert.match((await page.locator('.row.selected').textContent()) ?? '', /REQ-250-B0[56]/, 'without a selection, the arrows start where the user is');
    await page.keyboard.press('Control+Home');
    assert.match((await page.locator('.row.selected').textContent()) ?? '', /REQ-001-B01/);
    await page.keyboard.press('PageDown');
    await page.keyboard.press('PageDown');
    assert.ok((await domRows()) < 60);
    await p.finish();
  });

  it('saves filters, scroll and selection, and restores them after a reload', async () => {
    const model = matrixModel(400);
    const p = await harness.open('matrix', { reply: { type: 'init', model } });
    await p.page.locator('#search input').fill('login1');
    await p.settle(250);
    await p.page.locator('#matrix-grid').evaluate((el: { scrollTop: number }) => {
      el.scrollTop = 1400;
    });
    await p.page.locator('.row.behavior').nth(5).click();
    const selected = text(await p.page.locator('.row.selected .c-behavior a').textContent());
    await p.settle(250);
    const saved = await p.state();
    assert.equal(saved?.view, 'matrix');
    assert.equal(saved?.specDir, SPEC);
    await p.finish();

    const again = await harness.open('matrix', { state: saved, reply: { type: 'init', model } });
    assert.equal(await again.page.locator('#search input').inputValue(), 'login1');
    assert.equal(text(await again.page.locator('.row.selected .c-behavior a').textContent()), selected);
    const scrollTop = await again.page.locator('#matrix-grid').evaluate((el: { scrollTop: number }) => el.scrollTop);
    assert.ok(Math.abs(scrollTop - (saved!.ui as { scrollTop: number }).scrollTop) < 2, `scrollTop ${scrollTop}`);
    await again.finish();
  });

  it('keeps scroll, selection and filters when an update arrives', async () => {
    const p = await harness.open('matrix', { reply: { type: 'init', model: matrixModel(400) } });
    await p.page.locator('#gaps-only').click();
    await p.page.locator('#matrix-grid').evaluate((el: { scrollTop: number }) => {
      el.scrollTop = 900;
    });
    await p.settle(50);
    await p.page.locator('.row.behavior').nth(12).click();
    const selected = text(await p.page.locator('.row.selected .c-behavior a').textContent());
    const before = await p.page.locator('#matrix-grid').evaluate((el: { scrollTop: number }) => el.scrollTop);
    const updated = matrixModel(400);
    updated.rows[399].description = 'changed on disk';
    await p.send({ type: 'update', model: updated });
    assert.equal(await p.page.locator('#matrix-grid').evaluate((el: { scrollTop: number }) => el.scrollTop), before);
    assert.equal(text(await p.page.locator('.row.selected .c-behavior a').textContent()), selected);
    assert.equal(await p.page.locator('#gaps-only').evaluate((el: { checked: boolean }) => el.checked), true);
    await p.finish();
  });

  it('at a default editor width (750px, with the Chat panel open) every column is in sight, the title line and the filters each keep to one line; the behavior column stays when scrolled sideways', async () => {
    const p = await harness.open('matrix', { viewport: { width: 750, height: 700 }, reply: { type: 'init', model: matrixModel(20) } });
    const page = p.page;
    const grid = page.locator('#matrix-grid');
    const gridBox = (await grid.boundingBox())!;
    for (const label of ['Behavior', 'Category', 'Status', 'Tasks', 'Tests', 'Evidence', 'Closed']) {
      const box = (await page.locator('.header-row .cell', { hasText: new RegExp(`^${label}$`) }).boundingBox())!;
      assert.ok(box.x >= gridBox.x - 1 && box.x + box.width <= gridBox.x + gridBox.width + 1, `${label} is in sight (${box.x}+${box.width} in ${gridBox.width})`);
    }
    const line = (await page.locator('.title-line').boundingBox())!;
    const exportBox = (await page.locator('#export').boundingBox())!;
    assert.ok(exportBox.y < line.y + line.height && exportBox.y >= line.y - 1, 'Export sits on the title line');
    assert.ok(line.height < 40, `the title line is one line (${line.height}px)`);
    const filters = (await page.locator('.filters').boundingBox())!;
    assert.ok(filters.height < 40, `the filters keep to one line (${filters.height}px)`);
    const clear = (await page.locator('#clear-filters').boundingBox())!;
    assert.ok(clear.x + clear.width <= 750, 'Clear is in sight');

    // Narrower than the grid's minimum: scrolled sideways, the behavior column stays at the left edge.
    await page.setViewportSize({ width: 500, height: 700 });
    await grid.evaluate((el: { scrollLeft: number }) => {
      el.scrollLeft = 200;
    });
    await p.settle(50);
    const behavior = (await page.locator('.row.behavior .c-behavior').first().boundingBox())!;
    assert.ok(Math.abs(behavior.x - (await grid.boundingBox())!.x) <= 1, `the behavior cell stays at the left (${behavior.x})`);
    await p.finish();
  });

  it('at about 600px (the default width with the Chat view open) a behavior’s description and a row’s task ids can be read', async () => {
    const model = matrixModel(20);
    // A behavior done by three tasks: its ids are listed, not cut to "T1…".
    model.rows[1].tasks = ['T1', 'T2', 'T3'];
    const p = await harness.open('matrix', { viewport: { width: 600, height: 700 }, reply: { type: 'init', model } });
    const page = p.page;
    // The description's visible part, wrapped onto the row's second line: at least 40 characters of it (it was about ten).
    const seen = (await page.evaluate(`(() => {
      const el = document.querySelector('.row.behavior[data-item="1"] .desc');
      const cell = el.closest('.cell').getBoundingClientRect();
      const text = el.firstChild;
      const range = document.createRange();
      let n = 0;
      for (let i = 0; i < text.length; i++) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const r = range.getBoundingClientRect();
        if (r.right <= cell.right + 0.5 && r.bottom <= cell.bottom + 0.5 && r.width > 0) n++;
      }
      return n;
    })()`)) as number;
    assert.ok(seen >= 40, `characters of the description in sight: ${seen}`);
    const tasks = page.locator('.row.behavior', { hasText: 'REQ-001-B02' }).locator('.cell').nth(3);
    assert.equal(text(await tasks.textContent()), 'T1 T2 T3');
    // Every id in sight inside its cell: none cut, none hidden on a line the row does not show.
    const cell = (await tasks.boundingBox())!;
    for (const link of await tasks.locator('.file-link').all()) {
      const b = (await link.boundingBox())!;
      assert.ok(b.x + b.width <= cell.x + cell.width + 1 && b.y + b.height <= cell.y + cell.height + 1, `${await link.textContent()} is in its cell`);
    }
    assert.deepEqual(await cutTexts(page, '.header-row .cell, .row.behavior .c-category, .row.behavior .c-status, .row.behavior .c-closed'), []);
    await p.finish();
  });

  it('a test reads as its file name over its test name, a file name longer than the column cut in its middle, the whole of it on hover', async () => {
    const model = matrixModel(20);
    const file = 'tests/due/parseDueDate.test.js';
    const name = 'REQ-001-B01 合法的 YYYY-MM-DD 被接受并原样保存';
    model.rows[0].tests = [{ ref: `${file}#${name}`, path: pathIn(model, file) }];
    const long = 'tests/auth/userAuthenticationFlowRegression.spec.ts';
    model.rows[1].tests = [{ ref: long, path: pathIn(model, long) }];
    model.rows[2].tests = ['a', 'b', 'c'].map((t) => ({ ref: `${file}#${t}`, path: pathIn(model, file) }));
    model.rows[2].tests[1] = { ref: 'tests/due/clock.test.js', reason: 'missing' };
    const clock = 'tests/due/clock.test.js';
    model.rows[3].tests = ['REQ-001-B04 today in APP_TZ', 'REQ-001-B04 UTC without APP_TZ'].map((t) => ({ ref: `${clock}#${t}`, path: pathIn(model, clock) }));
    model.rows[4].tests = ['a.test.js', 'b.test.js', 'c.test.js', 'd.test.js'].map((f) => ({ ref: `tests/${f}`, path: pathIn(model, `tests/${f}`) }));
    const p = await harness.open('matrix', { viewport: { width: 800, height: 700 }, reply: { type: 'init', model } });
    const page = p.page;
    const tests = (behavior: string) => page.locator('.row.behavior', { hasText: behavior }).locator('.c-tests');
    const link = tests('REQ-001-B01').locator('a.file-link');
    assert.deepEqual(await link.locator('.ref-line').allTextContents(), ['parseDueDate', '合法的 YYYY-MM-DD 被接受并原样保存'], 'the file, then the test without the row’s id');
    assert.equal(await link.getAttribute('title'), `${file} › ${name}`);
    assert.equal(await link.getAttribute('aria-label'), `${file} › ${name}`);
    const cut = (await tests('REQ-001-B02').locator('.ref-file').textContent()) ?? '';
    assert.ok(middleCutOf('userAuthenticationFlowRegression', cut), `cut in the middle, more of its end kept: ${cut}`);
    assert.equal(await tests('REQ-001-B02').locator('a').getAttribute('title'), long);
    // Tests of two files: a file a line, with how many tests of it; the missing one marked in its line.
    const two = tests('REQ-001-B03');
    assert.deepEqual((await two.locator('.test-ref').allTextContents()).map(text), ['parseDueDate ×2', '✗ clock']);
    assert.equal(await two.locator('a').getAttribute('title'), `${file} › a\n${file} › c`);
    assert.equal(await two.locator('a').getAttribute('data-link'), 'tests:0');
    // Two tests of one file: the file over the first test's name and a count of the other, both named on hover.
    const same = tests('REQ-001-B04');
    assert.deepEqual((await same.locator('a > .ref-line').allTextContents()).map(text), ['clock', 'today in APP_TZ +1']);
    assert.equal(await same.locator('a').getAttribute('title'), `${clock} › REQ-001-B04 today in APP_TZ\n${clock} › REQ-001-B04 UTC without APP_TZ`);
    // Four files: two lines, the second counting the tests left out, which its tooltip names.
    const four = tests('REQ-001-B05');
    assert.deepEqual((await four.locator('.test-ref').allTextContents()).map(text), ['a', 'b +2']);
    assert.equal(await four.locator('.ref-more').getAttribute('title'), 'tests/c.test.js\ntests/d.test.js');
    // Every line whole in its cell: the file names not cut by the column (cut only where the text says so).
    for (const behavior of ['REQ-001-B01', 'REQ-001-B02', 'REQ-001-B03', 'REQ-001-B04', 'REQ-001-B05']) {
      const cell = (await tests(behavior).boundingBox())!;
      for (const el of await tests(behavior).locator('.ref-file').all()) {
        const b = (await el.boundingBox())!;
        assert.ok(b.y >= cell.y - 1 && b.y + b.height <= cell.y + cell.height + 1, `${await el.textContent()} is inside its row`);
      }
    }
    assert.deepEqual(await cutTexts(page, '.c-tests .ref-file'), []);
    const grid = (await page.locator('#matrix-grid').boundingBox())!;
    const closed = (await page.locator('.header-row .c-closed').boundingBox())!;
    assert.ok(closed.x + closed.width <= grid.x + grid.width + 1, 'the Tests column’s room leaves Closed in sight');
    // Narrower (the Chat view open): the file name is cut in its middle to its column, still no letter cut off by the edge.
    await page.setViewportSize({ width: 600, height: 700 });
    await p.settle(100);
    const narrow = (await tests('REQ-001-B01').locator('.ref-file').textContent()) ?? '';
    assert.ok(middleCutOf('parseDueDate', narrow), `cut in its middle: ${narrow}`);
    assert.deepEqual(await cutTexts(page, '.c-tests .ref-file'), []);
    await p.finish();
  });

  it('keeps its column widths when a filter narrows the rows, and cuts no header or value', async () => {
    const p = await harness.open('matrix', { viewport: { width: 750, height: 700 }, reply: { type: 'init', model: matrixModel(20) } });
    const page = p.page;
    const columns = () => page.evaluate(`getComputedStyle(document.querySelector('#matrix-grid')).getPropertyValue('--columns')`);
    const before = await columns();
    await page.locator('#filter-category').click();
    await page.locator('#filter-category').getByRole('option', { name: 'boundary', exact: true }).click();
    await p.settle(50);
    assert.ok((await page.locator('.row.behavior .c-category').allTextContents()).every((c) => c === 'boundary'));
    assert.equal(await columns(), before, 'the same widths with "boundary" only');
    assert.deepEqual(await cutTexts(page, '.header-row .cell, .row.behavior .c-category, .row.behavior .c-status, .row.behavior .c-closed'), []);
    await p.finish();
  });

  it('with a wider side bar (a 560px editor) nothing is cut: the headers, the search placeholder, the filters’ words; the filters wrap instead', async () => {
    const p = await harness.open('matrix', { viewport: { width: 560, height: 700 }, reply: { type: 'init', model: matrixModel(20) } });
    const page = p.page;
    assert.deepEqual(await cutTexts(page, '.header-row .cell'), []);
    const placeholder = (await page.evaluate(`(() => {
      const input = document.querySelector('#search').shadowRoot.querySelector('input');
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d');
      context.font = style.fontSize + ' ' + style.fontFamily;
      const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      return { text: context.measureText(input.placeholder).width, room: input.clientWidth - padding };
    })()`)) as { text: number; room: number };
    assert.ok(placeholder.text <= placeholder.room, `the placeholder fits (${placeholder.text} in ${placeholder.room})`);
    for (const id of ['filter-category', 'filter-status', 'filter-task']) {
      const face = (await page.evaluate(`(() => {
        const text = document.querySelector('#${id}').shadowRoot.querySelector('.text');
        return { scroll: text.scrollWidth, client: text.clientWidth, words: text.textContent };
      })()`)) as { scroll: number; client: number; words: string };
      assert.ok(face.scroll <= face.client, `${id} shows "${face.words}" whole (${face.scroll} in ${face.client})`);
    }
    const clear = (await page.locator('#clear-filters').boundingBox())!;
    assert.ok(clear.x + clear.width <= 560, 'Clear is in sight, on the next line if need be');
    await p.finish();
  });

  it('exports everything, or only the filtered behaviors', async () => {
    const p = await harness.open('matrix', { reply: { type: 'init', model: matrixModel(30) } });
    assert.equal(await p.page.locator('#export-csv').isVisible(), false, 'the formats are in the Export menu');
    await p.page.locator('#export').click();
    await p.page.locator('#export-csv').click();
    assert.equal(await p.page.locator('#export-menu').isVisible(), false, 'choosing closes the menu');
    await p.page.locator('#search input').fill('REQ-002-B0');
    await p.settle(250);
    await p.page.locator('#export').click();
    await p.page.locator('#export-markdown').click();
    const exports = await p.postedOf('exportMatrix');
    assert.deepEqual(exports[0], { type: 'exportMatrix', specDir: SPEC, format: 'csv' });
    assert.equal(exports[1].format, 'markdown');
    assert.deepEqual(
      exports[1].behaviors,
      Array.from({ length: 9 }, (_, i) => `REQ-002-B0${i + 1}`),
    );
    await p.finish();
  });

  it('shows a notice instead of the grid when the spec is unavailable', async () => {
    const p = await harness.open('matrix', { reply: { type: 'init', model: matrixModel(5) } });
    await p.send({ type: 'unavailable', message: 'specs/2026-11-29+login was removed' });
    assert.equal(await p.page.locator('#matrix-grid').count(), 0);
    assert.equal(text(await p.page.locator('.notice.error').textContent()), 'specs/2026-11-29+login was removed');
    await p.finish();
  });
});
