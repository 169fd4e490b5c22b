import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseJsonDocument } from '../../../src/core/diagnostics/jsonDocument';
import {
  ARTIFACT_ANALYSIS_FILE,
  ArtifactAnalysisSchema,
  CONVERGENCE_REPORT_FILE,
  ConvergenceReportSchema,
  FINDING_KINDS,
  FINDING_SEVERITIES,
  FindingsFileSchema,
} from '../../../src/core/files/findings';

const specDir = resolve(__dirname, '../../fixtures/files/repo/specs/2026-11-20+user-login');
const read = (name: string) => readFileSync(join(specDir, name), 'utf8');
const brief = (d: { line: number; column: number; message: string }) => `${d.line}:${d.column} ${d.message}`;

describe('artifact-analysis.json', () => {
  const parse = (text: string) => parseJsonDocument('specs/s/artifact-analysis.json', text, ArtifactAnalysisSchema());

  it('reads a realistic passing analysis', () => {
    assert.equal(ARTIFACT_ANALYSIS_FILE, 'artifact-analysis.json');
    const { value, diagnostics } = parse(read(ARTIFACT_ANALYSIS_FILE));
    assert.deepEqual(diagnostics, []);
    assert.equal(value!.status, 'pass');
    assert.equal(value!.blocker_count, 0);
    assert.equal(value!.coverage.traceability_behavior_coverage, '100%');
    assert.equal(value!.findings.length, 1);
    const f = value!.findings[0];
    assert.equal(f.kind, 'partial');
    assert.equal(f.severity, 'warning');
    assert.deepEqual(f.location, { file: 'spec.md', line: 10 });
    assert.deepEqual(f.suggested_fix, { action: 'update_requirement', details: '补充 423 响应体' });
  });

  it('defaults coverage, findings and blocker_count', () => {
    assert.deepEqual(parse('{"status": "blocked"}').value, { status: 'blocked', coverage: {}, findings: [], blocker_count: 0 });
  });

  it('reports a status outside pass | blocked at its key', () => {
    assert.deepEqual(parse('{\n  "stage": "analyze-artifacts",\n  "status": "passed"\n}').diagnostics.map(brief), [
      '3:3 specs/s/artifact-analysis.json: "status": Invalid option: expected one of "pass"|"blocked"',
    ]);
  });

  it('reports a bad finding kind and severity inside the findings list', () => {
    const text = [
      '{',
      '  "status": "blocked",',
      '  "findings": [',
      '    {',
      '      "id": "AA-1",',
      '      "kind": "",',
      '      "severity": "critical",',
      '      "message": "x"',
      '    }',
      '  ],',
      '  "blocker_count": 1.5',
      '}',
    ].join('\n');
    assert.deepEqual(parse(text).diagnostics.map(brief), [
      '6:7 specs/s/artifact-analysis.json: "findings.0.kind": Too small: expected string to have >=1 characters',
      '7:7 specs/s/artifact-analysis.json: "findings.0.severity": Invalid option: expected one of "info"|"warning"|"error"|"blocker"',
      '11:3 specs/s/artifact-analysis.json: "blocker_count": Invalid input: expected int, received number',
    ]);
  });

  it("reads the kinds loom's own analyzer writes beyond its schema", () => {
    const text = '{ "status": "blocked", "blocker_count": 1, "findings": [{ "id": "AA-1", "kind": "orphan_task", "severity": "blocker", "message": "T9 maps nothing" }] }';
    const { value, diagnostics } = parse(text);
    assert.deepEqual(diagnostics, []);
    assert.equal(value!.findings[0].kind, 'orphan_task');
  });

  it("uses loom's finding kinds and severities", () => {
    assert.deepEqual([...FINDING_KINDS], ['missing', 'partial', 'contradicts', 'unrequested', 'stale', 'placeholder', 'format']);
    assert.deepEqual([...FINDING_SEVERITIES], ['info', 'warning', 'error', 'blocker']);
  });
});

describe('convergence-report.json', () => {
  const parse = (text: string) => parseJsonDocument('specs/s/convergence-report.json', text, ConvergenceReportSchema());

  it('reads a realistic report that needs another round', () => {
    assert.equal(CONVERGENCE_REPORT_FILE, 'convergence-report.json');
    const { value, diagnostics } = parse(read(CONVERGENCE_REPORT_FILE));
    assert.deepEqual(diagnostics, []);
    assert.equal(value!.status, 'needs_another_round');
    assert.equal(value!.round, 1);
    assert.equal(value!.blocker_count, 1);
    assert.deepEqual(value!.classification, { 'REQ-001-B01': 'covered', 'REQ-001-B02': 'partial', 'REQ-002-B01': 'missing' });
    assert.equal(value!.findings[0].behavior_id, 'REQ-002-B01');
  });

  it('reports a bad status and a classification that is not a string', () => {
    const text = '{\n  "status": "converging",\n  "classification": {\n    "REQ-001-B01": 1\n  }\n}';
    assert.deepEqual(parse(text).diagnostics.map(brief), [
      '2:3 specs/s/convergence-report.json: "status": Invalid option: expected one of "converged"|"needs_another_round"',
      '4:5 specs/s/convergence-report.json: "classification.REQ-001-B01": Invalid input: expected string, received number',
    ]);
  });
});

describe('findings/*.json', () => {
  const parse = (text: string) => parseJsonDocument('specs/s/findings/round-1.json', text, FindingsFileSchema());

  it('reads a findings file with a located finding', () => {
    const { value, diagnostics } = parse(read('findings/round-1.json'));
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(value!.findings[0].location, { file: 'src/auth/login.ts', line: 42, symbol: 'login' });
    assert.deepEqual(value!.summary, { total: 1 });
  });

  it('reports a missing findings list, an empty message and a line of 0', () => {
    assert.deepEqual(parse('{\n  "summary": {}\n}').diagnostics.map(brief), ['1:1 specs/s/findings/round-1.json: "findings": Invalid input: expected array, received undefined']);
    const text = '{\n  "findings": [\n    {\n      "id": "F1",\n      "kind": "stale",\n      "severity": "info",\n      "message": "",\n      "location": { "line": 0 }\n    }\n  ]\n}';
    assert.deepEqual(parse(text).diagnostics.map(brief), [
      '7:7 specs/s/findings/round-1.json: "findings.0.message": Too small: expected string to have >=1 characters',
      '8:21 specs/s/findings/round-1.json: "findings.0.location.line": Too small: expected number to be >=1',
    ]);
  });
});
