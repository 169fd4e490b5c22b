import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkDrafts } from '../../../src/core/authoring/draftCheck';
import { draftBase, writeDrafts } from '../../../src/core/authoring/draftWrite';
import { AUTHORING } from '../../../src/core/authoring/stageCommands';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { fingerprintPath } from '../../../src/core/specdir/fingerprints';
import { staleHandoffs } from '../../../src/core/specdir/handoffStaleness';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { checkStage, writeHandoff } from '../../helpers/intents';
import { freshSpec, GOOD } from '../authoring/authoringFixture';
import { state } from '../../helpers/tempRepo';
import { plannedSpec, SPEC, withRepo } from '../validators/validatorFixture';

/** The spec as the extension holds it: its actor writes the handoffs. */
const specOf = (root: string, specDir: string) => new LoomRepository(root).load().get(specDir)!;

/**
 * Every handoff the extension writes carries what loom 3's state-store.js writeHandoff records:
 * `basis_fingerprints` of spec.md and plan.md (plus tasks/ for planning and executing, tasks/TN.md
 * for a task, test-report.md for verification) and `artifact_fingerprints` of its artifacts but
 * handoffs/, task-states/, progress.md, pipeline.state.json and the mutable ledgers
 * (traceability.json, artifact-analysis.json, convergence-report.json, findings/), each resolved
 * by fingerprints.js resolveTrackedPath and digested by fingerprintPath (only what exists).
 * loom's findStaleHandoffs recomputes those digests and compares them; so a handoff whose
 * recorded digests equal the ones computed here, the way loom computes them, is fresh for loom.
 */
const sha = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** loom's fingerprintPath, written out independently: a file's bytes, or a folder's sorted `path\0sha` lines. */
function loomDigest(path: string): string {
  if (statSync(path).isFile()) return sha(readFileSync(path));
  const rows: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) walk(join(dir, e.name), rel);
      else rows.push(`${rel}\0${sha(readFileSync(join(dir, e.name)))}`);
    }
  };
  walk(path, '');
  return sha(rows.join('\n'));
}

const digests = (dir: string, paths: string[]) => Object.fromEntries(paths.sort().map((p) => [p, loomDigest(join(dir, p))]));
const readHandoff = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, 'handoffs', `${name}.json`), 'utf8'));

describe('handoffs the extension writes carry the fingerprints loom writes', () => {
  it('the chat drafts: brainstorming, then detail expansion (which refreshes the handoff it reworked), then planning', () => {
    const s = freshSpec();
    try {
      const write = (command: keyof typeof AUTHORING, drafts: typeof GOOD.brainstorm) =>
        writeDrafts(specOf(s.root, s.specDir), AUTHORING[command], drafts, draftBase(s.dir, drafts), '', '2026-11-30T10:00:00Z');
      write('brainstorm', GOOD.brainstorm);
      const brainstorming = readHandoff(s.dir, 'brainstorming');
      // The drafts' check writes them as writeDrafts will: no stale handoff for the model to "repair".
      assert.deepEqual(checkDrafts(s.root, s.specDir, AUTHORING.expand, GOOD.expand), []);
      // plan.md does not exist yet: loom records only what exists.
      assert.deepEqual(brainstorming.basis_fingerprints, digests(s.dir, ['spec.md']));
      assert.deepEqual(brainstorming.artifact_fingerprints, digests(s.dir, ['spec.md', 'requirements.json']));

      // /expand rewrites requirements.json, an artifact of brainstorming: the user accepted that
      // rework, so brainstorming's handoff is taken again and neither tool calls it stale.
      const expanded = write('expand', GOOD.expand);
      assert.deepEqual(expanded.refreshed, ['handoffs/brainstorming.json']);
      assert.deepEqual(readHandoff(s.dir, 'brainstorming').artifact_fingerprints, digests(s.dir, ['spec.md', 'requirements.json']));
      assert.equal(readHandoff(s.dir, 'brainstorming').summary, brainstorming.summary, 'what it says is kept');

      write('plan', GOOD.plan);
      const planning = readHandoff(s.dir, 'planning');
      assert.deepEqual(planning.basis_fingerprints, digests(s.dir, ['spec.md', 'plan.md', 'tasks/']));
      const artifacts = GOOD.plan.map((d) => d.path).filter((p) => p !== 'traceability.json');
      assert.deepEqual(planning.artifact_fingerprints, digests(s.dir, artifacts), 'traceability.json is a mutable ledger loom leaves out');

      const snapshot = () => loadSpec(s.root, s.dir);
      assert.deepEqual(staleHandoffs(snapshot()), []);
      appendFileSync(join(s.dir, 'plan.md'), '\nOne more line.\n');
      assert.deepEqual(
        staleHandoffs(snapshot()).map((h) => [h.handoff, h.changed]),
        [['handoffs/planning.json', ['plan.md']]],
      );
    } finally {
      s.cleanup();
    }
  });

  it('Check Stage at analyze-artifacts and at converge: spec.md and plan.md, the report left out as loom leaves it out', () =>
    withRepo((r) => {
      plannedSpec(r, { executed: true });
      for (const stage of ['analyze-artifacts', 'converge']) {
        r.write(`${SPEC}/pipeline.state.json`, state(stage));
        const spec = new LoomRepository(r.root).load().get(SPEC)!;
        const result = checkStage(spec, '2026-11-30T12:00:00.000Z');
        assert.equal(result.handoff, `handoffs/${stage}.json`, JSON.stringify(result.validators));
        const handoff = readHandoff(r.path(SPEC), stage);
        assert.deepEqual(handoff.basis_fingerprints, digests(r.path(SPEC), ['spec.md', 'plan.md']), stage);
        assert.deepEqual(handoff.artifact_fingerprints, {}, `${stage}: its report is a mutable ledger`);
      }
      assert.deepEqual(staleHandoffs(loadSpec(r.root, r.path(SPEC))), []);
      appendFileSync(r.path(`${SPEC}/spec.md`), '\nChanged.\n');
      assert.deepEqual(
        staleHandoffs(loadSpec(r.root, r.path(SPEC))).map((h) => [h.handoff, h.changed]),
        [
          ['handoffs/analyze-artifacts.json', ['spec.md']],
          ['handoffs/converge.json', ['spec.md']],
        ],
      );
    }));

  it('the CLI (loom handoff write): a repository-relative artifact resolves from the repository, the ledgers left out', () =>
    withRepo((r) => {
      plannedSpec(r);
      r.write(`${SPEC}/pipeline.state.json`, state('executing'));
      r.write('src/login.ts', 'export const login = 1;\n');
      const spec = new LoomRepository(r.root).load().get(SPEC)!;
      writeHandoff(spec, { stage: 'executing', summary: 'done', artifacts: ['src/login.ts', 'traceability.json', 'findings/x.json'] }, '2026-11-30T12:00:00.000Z');
      const handoff = readHandoff(r.path(SPEC), 'executing');
      assert.deepEqual(handoff.basis_fingerprints, digests(r.path(SPEC), ['spec.md', 'plan.md', 'tasks/']));
      assert.deepEqual(handoff.artifact_fingerprints, digests(r.root, ['src/login.ts']));
      assert.deepEqual(staleHandoffs(loadSpec(r.root, r.path(SPEC))), []);
      r.write('src/login.ts', 'export const login = 2;\n');
      assert.deepEqual(
        staleHandoffs(loadSpec(r.root, r.path(SPEC))).map((h) => [h.handoff, h.changed]),
        [['handoffs/executing.json', ['src/login.ts']]],
      );
    }));

  it("a folder's digest is loom's, review-comments.json included (loom's fingerprintPath leaves nothing out)", () =>
    withRepo((r) => {
      plannedSpec(r);
      r.write(`${SPEC}/review-comments.json`, { version: 1, threads: [] });
      assert.equal(fingerprintPath(r.path(SPEC)), loomDigest(r.path(SPEC)));
      assert.equal(fingerprintPath(r.path(`${SPEC}/tasks`)), loomDigest(r.path(`${SPEC}/tasks`)));
    }));
});
