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

  it("reads the forms loom's parseVerdict reads, and only those", () => {
    assert.equal(verdictOf('**Verdict:** PASS'), 'PASS');
    assert.equal(verdictOf('**Verdict: PASS**'), 'PASS');
    assert.equal(verdictOf('- verdict：PASS'), 'PASS');
    assert.equal(verdictOf('## Verdict: PASS'), 'PASS');
    assert.equal(verdictOf('verdict: pass'), 'PASS');
    // Loom allows no emphasis between the word and the colon, and no backtick before the value.
    assert.equal(verdictOf('**Verdict**: FAIL'), undefined);
    assert.equal(verdictOf('> Verdict: `FAIL`'), undefined);
  });

  it("reads loom's Chinese forms and its other verdict words", () => {
    assert.equal(verdictOf('结论：通过'), 'PASS');
    assert.equal(verdictOf('结论：不通过'), 'FAIL');
    assert.equal(verdictOf('结论: 通过（有 2 条建议）'), 'PASS');
    assert.equal(verdictOf('裁定：失败'), 'FAIL');
    assert.equal(verdictOf('verdict: BLOCKED'), 'FAIL');
    const partial = parseReport('r.md', 'verdict: PARTIAL\n');
    assert.deepEqual([partial.verdict, partial.verdictText], ['FAIL', 'PARTIAL']);
  });

  it('records the line of the verdict', () => {
    const report = parseReport('r.md', '# Report\r\n\r\nsome text\r\nverdict: FAIL\r\n');
    assert.equal(report.verdict, 'FAIL');
    assert.equal(report.verdictLine, 4);
  });

  it('lets the first verdict line decide, as loom does; an unknown word is skipped', () => {
    const text = '# Run 1\nverdict: FAIL\n\n# Run 2\n结论：通过\n';
    assert.equal(verdictOf(text), 'FAIL');
    assert.equal(parseReport('r.md', text).verdictLine, 2);
    assert.equal(verdictOf('verdict: pending\n\nverdict: PASS\n'), 'PASS');
  });

  it('gives no verdict without a verdict line', () => {
    assert.equal(verdictOf(''), undefined);
    assert.equal(verdictOf('# Report\n\nAll 12 tests PASS.\n'), undefined);
    assert.equal(parseReport('r.md', '# Report\n\nAll 12 tests PASS.\n').inferredVerdict, 'PASS', "loom's fallback reads the words");
    assert.equal(parseReport('r.md', '# Report\n\n11 PASS, 1 FAIL\n').inferredVerdict, 'FAIL');
    assert.equal(parseReport('r.md', 'verdict: PASS\n').inferredVerdict, undefined);
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

  it('reads fields as loom does: an optional bullet, an ASCII colon, backticks dropped, the first value winning', () => {
    const text = [
      'evidence-command: npm test -- --grep "login"',
      '* Evidence-Exit-Code: `1`',
      '- evidence-file: evidence/run 2.log',
      'evidence-file: evidence/later.log',
      'evidence-sha256: ABCDEF0123',
    ].join('\n');
    assert.deepEqual(parseReport('r.md', text).evidence, {
      command: 'npm test -- --grep "login"',
      exitCode: 1,
      file: 'evidence/run 2.log',
      sha256: 'abcdef0123',
    });
    // Forms loom's validateReportEvidence does not read are not read here either.
    assert.deepEqual(parseReport('r.md', '**evidence-exit-code:** 0\nevidence-sha256：ab\n').evidence, {});
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
  it('finds BLOCKER, CHANGES_REQUESTED and FAIL with their lines, the verdict line included', () => {
    const text = ['# Review Feedback', '', '## BLOCKER: session token is logged', '- Status: CHANGES_REQUESTED', '- lint: FAIL', '', 'verdict: FAIL'].join('\n');
    const report = parseReport('specs/s/review-feedback.md', text);
    assert.deepEqual(report.blockingMarkers, [
      { line: 3, marker: 'BLOCKER' },
      { line: 4, marker: 'CHANGES_REQUESTED' },
      { line: 5, marker: 'FAIL' },
      { line: 7, marker: 'FAIL' },
    ]);
    assert.equal(report.verdict, 'FAIL');
  });

  it("counts markers in any case, and loom's other words, but not words that only contain one", () => {
    const report = parseReport('r.md', 'FAILED_TESTS: 0\nNONBLOCKER\nblocker (lower case)\nrejected\nNo blockers left\nverdict: PASS\n');
    assert.deepEqual(report.blockingMarkers, [
      { line: 3, marker: 'BLOCKER' },
      { line: 4, marker: 'REJECTED' },
    ]);
    assert.equal(report.verdict, 'PASS');
    assert.equal(report.reviewVerdict, 'PASS');
  });

  it('finds no markers in a clean review', () => {
    assert.deepEqual(parseReport('r.md', '# Review\n\nLooks good.\n\nverdict: PASS\n').blockingMarkers, []);
  });

  it('names the report files loom reads', () => {
    assert.deepEqual([...REPORT_FILES], ['test-report.md', 'verify-report.md', 'review-feedback.md', 'review-request.md', 'review-response.md']);
  });
});
