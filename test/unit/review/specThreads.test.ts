import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { exportSpecFeedback, updateSpecThreads } from '../../../src/core/review/specThreads';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';

const NOW = '2026-12-07T04:40:00.000Z';
const thread = {
  id: 't1',
  file: 'spec.md',
  line: 1,
  end_line: 1,
  quote: '# Login',
  status: 'open' as const,
  created_at: NOW,
  comments: [{ id: 'c1', author: 'ana', body: 'Which login providers?', created_at: NOW }],
};

// The host refreshes from the spec's notification only: a thread edit and the feedback export,
// which are not requests, end with the spec reading its files, so the views hear of them.
test('a thread edit and the feedback export are heard from the spec itself', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('brainstorming'));
    r.write(`${SPEC}/spec.md`, '# Login');
    const spec = new LoomRepository(r.root).load().get(SPEC)!;
    const heard: string[][] = [];
    spec.onDidChange(() => heard.push([...spec.snapshot.files].filter((f) => f.startsWith('review-')).sort()));
    updateSpecThreads(spec, (c) => void c.threads.push(thread));
    assert.deepEqual(heard.at(-1), ['review-comments.json']);
    exportSpecFeedback(spec, 'login', [thread], 'CHANGES_REQUESTED');
    assert.deepEqual(heard.at(-1), ['review-comments.json', 'review-feedback.md']);
  } finally {
    r.dispose();
  }
});
