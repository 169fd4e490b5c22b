import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InspectionEvent } from 'xstate';
import { describeInspection } from '../../../src/core/pipeline/machineInspection';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';
import { fail } from '../../helpers/intents';

test('inspection: every event an actor receives and every state it moves to, without the facts it carries', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('detail-expansion'));
    const lines: string[] = [];
    const repo = new LoomRepository(r.root, {
      pipeline: {
        inspect: (e: InspectionEvent, dir: string) => {
          const l = describeInspection(dir, e);
          if (l) lines.push(l);
        },
      },
    }).load();
    const spec = repo.get(SPEC)!;
    fail(spec, 'scope changed', { now: '2026-11-29T10:00:00.000Z' });
    assert.ok(lines.includes(`${SPEC}: event FAIL reason="scope changed"`), lines.join('\n'));
    assert.ok(
      lines.some((l) => l === `${SPEC}: at "failed"`),
      lines.join('\n'),
    );
    assert.ok(lines.includes(`${SPEC}: answered changed`), lines.join('\n'));
    assert.ok(lines.includes(`${SPEC}: event FILES_CHANGED`), 'a reload is an event too');
    assert.ok(!lines.some((l) => l.includes('stage_history')), 'the facts are not dumped into the log');
  } finally {
    r.dispose();
  }
});
