'use strict';
/**
 * A reload: the first window looks at every spec only summarized for the tree (in the look's
 * worker process) and keeps each look in the evaluation cache, then a file of one spec is
 * touched (as a checkout or an editor would, its content the same); the second window, on the
 * same profile, takes every other look from that cache, looks at the changed spec itself in the
 * extension host (a reload's few changed specs are not left to the worker, at the lowest priority
 * while the window starts), and shows the same Problems entries.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, waitFor } = require('../helpers');

const WINDOW = Number(process.env.LOOM_TEST_WINDOW);
const STATE = process.env.LOOM_TEST_STATE;
const ROOT = process.env.LOOM_TEST_WORKSPACE;

/** Loom's Problems entries, by file relative to the workspace, as plain comparable data. */
function loomProblems() {
  const out = {};
  for (const [uri, list] of vscode.languages.getDiagnostics()) {
    const own = list.filter((d) => typeof d.source === 'string' && d.source.startsWith('Loom'));
    if (!own.length) continue;
    out[path.relative(ROOT, uri.fsPath).split(path.sep).join('/')] = own
      .map((d) => `${d.range.start.line}:${d.range.start.character} ${d.severity} ${d.source}(${typeof d.code === 'object' ? `${d.code.value} ${d.code.target}` : d.code}) ${d.message}`)
      .sort();
  }
  return out;
}

suite(`A reload (window ${WINDOW} of 2)`, () => {
  let api;
  let summarized;

  suiteSetup(async () => {
    api = await loom();
    await waitFor('the look at every spec', () => api.registry.timings.checkedAt !== undefined, 30000);
    summarized = api.registry.rows().length - api.registry.loadedEntries().length;
    assert.ok(summarized > 0, 'some specs were only summarized for the tree');
  });

  if (WINDOW === 1) {
    test('the first window looks at the specs in the worker process and keeps each look', () => {
      const stats = api.registry.cacheStats;
      assert.ok(api.registry.lookedInWorker > 0, 'the worker looked at them');
      assert.strictEqual(api.registry.lookedFromCache, 0, 'nothing was kept yet');
      assert.strictEqual(stats.evaluations.written, stats.evaluations.misses, `each look evaluated was kept (${JSON.stringify(stats.evaluations)})`);
      const problems = loomProblems();
      assert.ok(Object.keys(problems).length > 0, 'the fixture has Problems entries');
      // The newest spec only summarized: the host's end of the list, which the worker gets to last.
      const loaded = new Set(api.registry.loadedEntries().map((e) => e.dir));
      const changed = api.registry
        .rows()
        .map((e) => e.dir)
        .filter((dir) => !loaded.has(dir) && fs.existsSync(path.join(dir, 'requirements.json')))
        .sort()
        .at(-1);
      assert.ok(changed, 'a spec only summarized, with a requirements.json');
      const now = new Date();
      fs.utimesSync(path.join(changed, 'requirements.json'), now, now);
      fs.writeFileSync(STATE, JSON.stringify({ problems, summarized, changed }));
    });

    test("the first window compiles the extension's bundle: there is no code cache yet", () => {
      assert.strictEqual(api.timings.codeCache, false);
    });
  } else {
    test("the second window loads the extension's bundle with the code cache the first one wrote", () => {
      const folder = process.env.LOOM_VSCODE_CACHE_DIR;
      const written = fs.readdirSync(folder).filter((f) => f.startsWith('extensionMain-') && f.endsWith('.v8'));
      assert.strictEqual(written.length, 1, `one code cache of dist/extensionMain.js in ${folder}: ${fs.readdirSync(folder).join(', ')}`);
      assert.strictEqual(api.timings.codeCache, true, 'V8 took it');
    });

    test('the second window takes every other look from the cache, looks at the changed spec itself, and shows the same Problems entries', async () => {
      const before = JSON.parse(fs.readFileSync(STATE, 'utf8'));
      const stats = api.registry.cacheStats;
      assert.strictEqual(summarized, before.summarized);
      assert.strictEqual(stats.evaluations.misses, 1, `only ${path.basename(before.changed)} was evaluated again (${JSON.stringify(stats.evaluations)})`);
      assert.strictEqual(api.registry.lookedHere, 1, 'the host looked at the changed spec, not the worker');
      assert.strictEqual(stats.summaries.misses, 0, `no row parsed pipeline.state.json again (${JSON.stringify(stats.summaries)})`);
      assert.ok(stats.summaries.hits >= summarized, 'each row took its kept parse');
      assert.ok(api.registry.lookedFromCache > 0, 'the host took the kept looks');
      // The look covers the whole listing: the spec the status bar read in full too.
      assert.strictEqual(api.registry.lookedFromCache + api.registry.lookedInWorker + api.registry.lookedHere, api.registry.rows().length, 'every spec once');
      // What the kept looks left was few enough for the host: no worker process took a core from the window's start.
      assert.strictEqual(api.registry.lookedInWorker, 0);
      assert.deepStrictEqual(
        api.registry.timings.look.map((l) => l.begunAt),
        [undefined],
        `no look's worker was started (${JSON.stringify(api.registry.timings.look)})`,
      );
      assert.deepStrictEqual(loomProblems(), before.problems);
    });
  }
});
