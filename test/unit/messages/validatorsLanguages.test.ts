import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { artifactAnalysisPass, writeArtifactAnalysis } from '../../../src/core/validators/artifactAnalysis';
import { inChinese } from '../../helpers/displayLanguage';
import { load, NOW, plannedSpec, SPEC, withRepo, type TempRepo } from '../validators/validatorFixture';

/** A planned spec whose plan.md names a T9 that has no task file. */
function planNamesT9(r: TempRepo): void {
  plannedSpec(r);
  r.write(`${SPEC}/plan.md`, `${r.read(`${SPEC}/plan.md`)}\n- T9: later\n`);
}

describe('artifact analysis and file diagnostics speak the display language', () => {
  it('an artifact-analysis finding and its fix come out Chinese, its kind stays English', () => {
    withRepo((r) => {
      planNamesT9(r);
      const finding = inChinese(() => artifactAnalysisPass(load(r)).findings ?? []).find((f) => f.task_id === 'T9');
      assert.ok(finding, 'plan.md names T9 without tasks/T9.md');
      assert.equal(finding.kind, 'missing');
      assert.equal(finding.message, 'plan.md 提到了 T9，但 tasks/T9.md 不存在');
      assert.equal(finding.suggested_fix?.details, '创建 tasks/T9.md');
      // English stays the default, word for word.
      const english = (artifactAnalysisPass(load(r)).findings ?? []).find((f) => f.task_id === 'T9');
      assert.equal(english?.message, 'plan.md names T9, but tasks/T9.md does not exist');
    });
  });

  it('artifact-analysis.json stays English in a Chinese UI, so its fingerprint does not follow the UI', () => {
    withRepo((r) => {
      planNamesT9(r);
      const { report } = inChinese(() => writeArtifactAnalysis(load(r), { now: NOW }));
      assert.ok(report.findings.some((f) => f.message === 'plan.md names T9, but tasks/T9.md does not exist'));
      const again = writeArtifactAnalysis(load(r), { now: '2026-11-30T12:00:00.000Z' });
      assert.equal(again.written, false, 'the English UI finds the same file');
    });
  });

  it('a corrupt file and a schema problem come out Chinese, with their codes', () => {
    withRepo((r) => {
      plannedSpec(r);
      r.write(`${SPEC}/traceability.json`, '{ "requirements": ');
      const requirements = r.json(`${SPEC}/requirements.json`);
      requirements.requirements[0].id = 'REQ-1';
      r.write(`${SPEC}/requirements.json`, requirements);
      const diagnostics = inChinese(() => load(r).diagnostics);
      const corrupt = diagnostics.find((d) => d.code === 'json-syntax');
      assert.ok(corrupt, 'traceability.json does not parse');
      assert.match(corrupt.message, /traceability\.json 不是有效的 JSON：/);
      const schema = diagnostics.find((d) => d.code === 'schema' && d.file.endsWith('requirements.json'));
      assert.ok(schema, 'REQ-1 is not a requirement id');
      assert.match(schema.message, /requirements\.json：".*id"：需求 id 必须形如 REQ-001/);
    });
  });
});
