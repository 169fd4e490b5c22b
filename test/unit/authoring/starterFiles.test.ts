import assert from 'node:assert/strict';
import { test } from 'node:test';
import { starterText } from '../../../src/core/authoring/starterFiles';
import { findPlaceholder } from '../../../src/core/files/placeholders';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { createSpec } from '../../../src/core/repository/createSpec';
import { TempRepo } from '../../helpers/tempRepo';

/*
 * New Feature's spec.md and the requirements.json "Create requirements.json" opens cannot pass
 * brainstorming untouched: each place to fill is a TODO line, the marker loom 3's checkStageOutputs
 * refuses in a stage's outputs (artifact-checker.js hasPlaceholder: TBD/TODO/FIXME/XXX, the phrases,
 * {{VAR}}), as our fileExists guard with noPlaceholders does.
 */

const WORKFLOW = 'pipelines:\n  feature:\n    steps:\n      - { id: brainstorming, outputs: [spec.md, requirements.json], gate: human-approval }\n      - { id: detail-expansion }\n';
const NOW = new Date(2026, 11, 4, 10, 0, 0);

function newFeature(language: 'en' | 'zh') {
  const r = new TempRepo();
  r.write('.loom/workflow.yaml', WORKFLOW);
  const created = createSpec(r.root, language === 'zh' ? '导出 CSV' : 'CSV export', NOW, { language });
  const forward = () =>
    new LoomRepository(r.root)
      .load()
      .get(created.specDir)!
      .status()
      .next.find((n) => n.kind === 'forward')!;
  return { r, specDir: created.specDir, name: created.specDir.split('/')[1], forward };
}

for (const language of ['en', 'zh'] as const) {
  test(`the untouched template (${language}) is refused at its first place to fill, and moves on once filled in`, () => {
    const { r, specDir, name, forward } = newFeature(language);
    try {
      const spec = r.read(`${specDir}/spec.md`);
      const first = findPlaceholder(spec)!;
      assert.equal(first.placeholder, 'TODO');
      assert.match(spec.split('\n')[first.line - 1], /^TODO(: |：)/, 'the first marker is a place to fill, not the note about them');
      // What "Create requirements.json" opens: the schema's shape, in the spec's language.
      const skeleton = starterText('requirements.json', { name, pipelineType: 'feature' }, language)!;
      r.write(`${specDir}/requirements.json`, skeleton);

      const refused = forward();
      assert.equal(refused.ready, false);
      assert.ok(refused.unmet.includes(`spec.md line ${first.line} still holds the placeholder TODO`), refused.unmet.join('\n'));
      assert.ok(
        refused.unmet.some((u) => /^requirements\.json line \d+ still holds the placeholder TODO$/.test(u)),
        refused.unmet.join('\n'),
      );
      const loaded = new LoomRepository(r.root).load().get(specDir)!;
      assert.deepEqual(loaded.diagnostics, [], 'the skeleton reads without an error: only its words are missing');
      assert.equal(loaded.snapshot.requirements?.requirements[0].behaviors[0].id, 'REQ-001-B01');

      r.write(`${specDir}/spec.md`, spec.replace(/TODO(: |：)/g, ''));
      r.write(`${specDir}/requirements.json`, skeleton.replace(/TODO(: |：)/g, ''));
      const filled = forward();
      assert.deepEqual(filled.unmet, []);
      assert.equal(filled.ready, true);
    } finally {
      r.dispose();
    }
  });
}

test('spec.md opens as New Feature writes it; a file of no known shape starts empty', () => {
  const spec = starterText('spec.md', { name: '2026-12-04+csv-export', pipelineType: 'feature' }, 'en')!;
  assert.match(spec, /^# Spec: csv-export$/m);
  assert.match(spec, /^> Feature: `2026-12-04\+csv-export` · Pipeline: feature$/m);
  // plan.md has a starter now (personFileStarters); a file Loom has no shape for starts empty.
  assert.equal(starterText('notes.md', { name: '2026-12-04+csv-export', pipelineType: 'feature' }, 'en'), undefined);
});
