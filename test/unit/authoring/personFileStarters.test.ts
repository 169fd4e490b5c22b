import assert from 'node:assert/strict';
import { test } from 'node:test';
import { starterText } from '../../../src/core/authoring/starterFiles';
import { findPlaceholder } from '../../../src/core/files/placeholders';
import { parseReviewFeedback } from '../../../src/core/review/feedbackPoints';

/*
 * Every file a person may write opens as a starter in the spec's language when it does not exist
 * yet (the refusal's "Create review-request.md", the dashboard's "open"), as requirements.json does.
 */
const FILES = ['plan.md', 'review-request.md', 'review-feedback.md', 'review-response.md', 'test-report.md', 'verify-report.md'];
const spec = { name: '2026-11-25+due-dates', pipelineType: 'feature' };
const CJK = /[\u4e00-\u9fff]/;

for (const file of FILES) {
  test(`${file} starts from a template in the spec's language, with its places to fill marked TODO`, () => {
    const en = starterText(file, spec, 'en');
    const zh = starterText(file, spec, 'zh');
    assert.ok(en && zh, `${file} has a starter in both languages`);
    assert.ok(en.includes(spec.name) && zh.includes(spec.name), 'the starter names the spec');
    assert.doesNotMatch(en, CJK, 'the English starter has no Chinese word');
    assert.match(zh, CJK);
    // An untouched starter cannot pass a gate: loom's checkStageOutputs refuses the placeholder.
    assert.equal(findPlaceholder(en)?.placeholder, 'TODO');
    assert.equal(findPlaceholder(zh)?.placeholder, 'TODO');
  });
}

for (const language of ['en', 'zh'] as const) {
  test(`review-feedback.md (${language}) filled in passes loom's review gate and its must-fix points are blockers to Answer Review`, () => {
    const starter = starterText('review-feedback.md', spec, language)!;
    const withoutTodo = (text: string) =>
      text
        .split('\n')
        .filter((l) => !/TODO/.test(l))
        .join('\n');
    // The reviewer replaces the verdict line and deletes the lines they have nothing for.
    const passed = withoutTodo(starter).replace(/^verdict:.*$/m, '') + '\nverdict: PASS\n';
    // loom 3's checkReviewFeedbackApproval (pipeline-engine.js): verdict PASS and no blocking word anywhere.
    assert.doesNotMatch(passed, /\b(BLOCKER|FAIL|FAILED|CHANGES_REQUESTED|CHANGE_REQUESTED|REQUEST_CHANGES|REJECTED)\b/i);
    assert.match(passed, /^\s*verdict\s*:\s*PASS/im);

    const lines = withoutTodo(starter).split('\n');
    const mustFix = lines.findIndex((l) => /^## /.test(l));
    lines.splice(mustFix + 1, 0, '- `src/due.js:3` months above 12 are accepted');
    const read = parseReviewFeedback(lines.join('\n'));
    assert.ok('points' in read, JSON.stringify(read));
    assert.deepEqual(
      read.points.map((p) => [p.kind, p.file]),
      [['blocker', 'src/due.js']],
    );
  });
}
