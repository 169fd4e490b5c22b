import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { loadSpec } from '../../../src/core/specdir/loadSpec';
import { specOverview } from '../../../src/core/specdir/specOverview';

const fixtureRepo = resolve(__dirname, '../../fixtures/files/repo');
const SPEC = 'specs/2026-11-20+user-login';
const scratch = mkdtempSync(join(tmpdir(), 'loom-summary-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

describe('a spec summarized for the first rows of a list', () => {
  it('has the name, stage and stage counts of the spec read in full, and nothing else read', () => {
    const repo = new LoomRepository(fixtureRepo);
    const dir = join(fixtureRepo, SPEC);
    const summary = repo.summary(dir);
    const full = repo.get(SPEC)!;
    assert.equal(summary.snapshot.name, full.snapshot.name);
    assert.equal(summary.stage, full.stage);
    assert.equal(summary.pipelineType, full.pipelineType);
    const a = specOverview(summary.snapshot, summary.definition, summary.stage);
    const b = specOverview(full.snapshot, full.definition, full.stage);
    assert.deepEqual([a.group, a.progress, a.updatedAt], [b.group, b.progress, b.updatedAt]);
    assert.equal(summary.snapshot.tasks.size, 0, 'task files are not read for a row');
    assert.ok(full.snapshot.tasks.size > 0);
  });

  it('is not kept by the repository: asking for the spec reads it in full', () => {
    const repo = new LoomRepository(fixtureRepo);
    const summary = repo.summary(join(fixtureRepo, SPEC));
    const got = repo.get(SPEC)!;
    assert.notEqual(got, summary);
    assert.ok(got.snapshot.taskStates.size > 0);
  });

  it('reports a corrupt pipeline.state.json as the full read does (stage unknown, the diagnostic kept)', () => {
    const root = join(scratch, 'corrupt');
    cpSync(fixtureRepo, root, { recursive: true });
    writeFileSync(join(root, SPEC, 'pipeline.state.json'), '{ "current_stage": ');
    const summary = loadSpec(root, join(root, SPEC), undefined, { summary: true });
    const full = loadSpec(root, join(root, SPEC));
    assert.equal(summary.stateCondition, 'invalid');
    assert.equal(new LoomRepository(root).summary(join(root, SPEC)).stage, null);
    assert.deepEqual(
      summary.diagnostics,
      full.diagnostics.filter((d) => d.file.endsWith('pipeline.state.json')),
    );
  });
});
