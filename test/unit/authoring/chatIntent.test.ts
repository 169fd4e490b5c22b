import assert from 'node:assert/strict';
import test from 'node:test';
import { acceptedSpec, isAcceptance, specNamedIn } from '../../../src/core/authoring/chatIntent';

test('short whole replies accept; sentences asking for changes do not', () => {
  for (const yes of ['write', 'Write the files', 'yes', 'OK!', 'looks good', 'LGTM.', '确认', '写入', '可以。']) assert.equal(isAcceptance(yes), true, yes);
  for (const no of ['ok but rename T2', 'write a third task', 'yes, and add a boundary behavior', '', '不行，再拆一个任务']) assert.equal(isAcceptance(no), false, no);
});

test('specNamedIn finds a spec by directory, folder name or slug; the longest name wins; ties are undecided', () => {
  const dirs = ['specs/2026-11-20+login', 'specs/2026-11-21+login-audit', 'qa/2026-11-22+export'];
  assert.equal(specNamedIn('plan specs/2026-11-20+login please', dirs), 'specs/2026-11-20+login');
  assert.equal(specNamedIn('work on login-audit', dirs), 'specs/2026-11-21+login-audit');
  assert.equal(specNamedIn('the login feature', dirs), 'specs/2026-11-20+login');
  assert.equal(specNamedIn('2026-11-22+export', dirs), 'qa/2026-11-22+export');
  assert.equal(specNamedIn('nothing here', dirs), undefined);
  assert.equal(specNamedIn('tags', ['specs/2026-11-01+tags', 'qa/2026-11-02+tags']), undefined);
});

test('"write" accepts the drafts of the latest preview in the conversation, while they are pending', () => {
  const turns = [
    { command: 'plan', dir: '/ws/specs/2026-11-30+tags', pending: 'p1' },
    { command: 'plan', dir: '/ws/specs/2026-11-30+tags', wrote: ['plan.md'] },
    { command: 'review', dir: '/ws/specs/2026-11-27+priority', pending: 'r1' },
    { command: 'review', dir: '/ws/specs/2026-11-27+priority' },
  ];
  const pending = new Set(['p1', 'r1']);
  const isPending = (id: string) => pending.has(id);
  assert.equal(acceptedSpec(turns, 'review', isPending), '/ws/specs/2026-11-27+priority');
  assert.equal(acceptedSpec(turns, undefined, isPending), '/ws/specs/2026-11-27+priority', 'without a command, the latest preview of any');
  assert.equal(acceptedSpec(turns, 'plan', isPending), '/ws/specs/2026-11-30+tags');
  assert.equal(acceptedSpec(turns, 'respond', isPending), undefined, 'no preview of that command');
  pending.delete('r1');
  assert.equal(acceptedSpec(turns, 'review', isPending), undefined, 'written (or replaced) drafts are not accepted again');
  assert.equal(acceptedSpec([], 'review', isPending), undefined);
});
