import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { hasEvidenceReceipt, parseReport, REPORT_FILES } from '../../../src/core/files/report';

const specDir = resolve(__dirname, '../../fixtures/files/repo/specs/2026-11-20+user-login');
const verdictOf = (text: string) => parseReport('specs/s/test-report.md', text).verdict;

describe('report verdicts', () => {
  it('reads `verdict: PASS` and `verdict: FAIL`', () => {
    assert.equal(verdictOf('# Test Report\n\nverdict: PASS\n'), 'PASS');
    assert.equal(verdictOf('# Test Report\n\nverdict: FAIL\n'), 'FAIL');
  });

  it('reads the markdown-emphasised forms', () => {
    assert.equal(verdictOf('**Verdict:** PASS'), 'PASS');
    assert.equal(verdictOf('**Verdict**: FAIL'), 'FAIL');
    assert.equal(verdictOf('**Verdict: PASS**'), 'PASS');
    assert.equal(verdictOf('- verdict：PASS'), 'PASS');
    assert.equal(verdictOf('> Verdict: `FAIL`'), 'FAIL');
    assert.equal(verdictOf('## Verdict: PASS'), 'PASS');
    assert.equal(verdictOf('verdict: pass'), 'PASS');
  });

  it('reads loom\'s Chinese forms', () => {
    assert.equal(verdictOf('结论：通过'), 'PASS');
    assert.equal(verdictOf('结论：不通过'), 'FAIL');
    assert.equal(verdictOf('**结论**：不通过'), 'FAIL');
    assert.equal(verdictOf('结论: 通过（有 2 条建议）'), 'PASS');
  });

  it('records the line of the verdict', () => {
    const report = parseReport('r.md', '# Report\r\n\r\nsome text\r\nverdict: FAIL\r\n');
    assert.equal(report.verdict, 'FAIL');
    assert.equal(report.verdictLine, 4);
  });

  it('lets the last verdict win, because re-runs append', () => {
    const text = '# Run 1\nverdict: FAIL\n\n# Run 2\n结论：通过\n';
    assert.equal(verdictOf(text), 'PASS');
    assert.equal(parseReport('r.md', text).verdictLine, 5);
    assert.equal(verdictOf('verdict: PASS\n\n## Re-run\n**Verdict:** FAIL\n'), 'FAIL');
  });

  it('gives no verdict without a verdict line', () => {
    assert.equal(verdictOf(''), undefined);
    assert.equal(verdictOf('# Report\n\nAll 12 tests PASS.\n'), undefined);
    assert.equal(verdictOf('## 结论\n\n- Status: PASS\n'), undefined);
    assert.equal(verdictOf('verdict: PASSED'), undefined);
    assert.equal(verdictOf('the verdict: PASS is expected'), undefined);
    assert.equal(parseReport('r.md', 'nothing').verdictLine, undefined);
  });
});

describe('report evidence receipts', () => {
  it('reads the receipt of the realistic test report, backticks and upper-case sha256 included', () => {
    const report = parseReport('specs/s/test-report.md', readFileSync(join(specDir, 'test-report.md'), 'utf8'));
    assert.equal(report.verdict, 'PASS');
    assert.deepEqual(report.evidence, {
      command: 'node --test tests/auth',
      exitCode: 0,
      file: 'evidence/test.log',
      sha256: '889b6d7fd8eab422c717c7b974a0f177e2de5372b6c28bf288cf230437a5abe5',
    });
    assert.equal(hasEvidenceReceipt(report), true);
  });

  it('reads plain, quoted, emphasised and full-width-colon fields', () => {
    const text = [
      'evidence-command: npm test -- --grep "login"',
      '**evidence-exit-code:** 1',
      "- **evidence-file**: 'evidence/run 2.log'",
      'Evidence-SHA256：ABCDEF0123',
    ].join('\n');
    assert.deepEqual(parseReport('r.md', text).evidence, {
      command: 'npm test -- --grep "login"', exitCode: 1, file: 'evidence/run 2.log', sha256: 'abcdef0123',
    });
  });

  it('reads fields inside a fenced yaml block', () => {
    const text = '## Evidence Receipt\n\n```yaml\nevidence-command: npm run check\nevidence-exit-code: 0\nevidence-file: evidence/check.log\nevidence-sha256: 6f92c6\n```\n\n**Verdict: PASS**\n';
    const report = parseReport('r.md', text);
    assert.deepEqual(report.evidence, { command: 'npm run check', exitCode: 0, file: 'evidence/check.log', sha256: '6f92c6' });
    assert.equal(report.verdict, 'PASS');
  });

  it('keeps an exit code that is not a number as NaN, which never equals 0', () => {
    assert.ok(Number.isNaN(parseReport('r.md', 'evidence-exit-code: unknown').evidence.exitCode));
  });

  it('has no receipt when no field is named', () => {
    const report = parseReport('r.md', 'verdict: PASS\n');
    assert.deepEqual(report.evidence, {});
    assert.equal(hasEvidenceReceipt(report), false);
    assert.equal(hasEvidenceReceipt(parseReport('r.md', 'evidence-file: evidence/x.log')), true);
  });
});

describe('review-feedback blocking markers', () => {
  it('finds BLOCKER, CHANGES_REQUESTED and FAIL with their lines', () => {
    const text = [
      '# Review Feedback',
      '',
      '## BLOCKER: session token is logged',
      '- Status: CHANGES_REQUESTED',
      '- lint: FAIL',
      '',
      'verdict: FAIL',
    ].join('\n');
    const report = parseReport('specs/s/review-feedback.md', text);
    assert.deepEqual(report.blockingMarkers, [
      { line: 3, marker: 'BLOCKER' }, { line: 4, marker: 'CHANGES_REQUESTED' }, { line: 5, marker: 'FAIL' },
    ]);
    assert.equal(report.verdict, 'FAIL');
  });

  it('does not count the verdict line itself, nor words that only contain a marker', () => {
    const report = parseReport('r.md', 'FAILED_TESTS: 0\nNONBLOCKER\nblocker (lower case)\nverdict: PASS\n');
    assert.deepEqual(report.blockingMarkers, []);
    assert.equal(report.verdict, 'PASS');
  });

  it('finds no markers in a clean review', () => {
    assert.deepEqual(parseReport('r.md', '# Review\n\nLooks good.\n\nverdict: PASS\n').blockingMarkers, []);
  });

  it('names the report files loom reads', () => {
    assert.deepEqual([...REPORT_FILES], ['test-report.md', 'verify-report.md', 'review-feedback.md', 'review-request.md', 'review-response.md']);
  });
});
