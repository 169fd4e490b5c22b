import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SPEC, requirements, state, TempRepo } from '../../helpers/tempRepo';

test('a stray colon in requirements.json: the refusal says where (line and column) and what the parser found, not "line 16: is not valid JSON"', () => {
  const r = new TempRepo();
  try {
    r.write(`${SPEC}/pipeline.state.json`, state('brainstorming'));
    r.write(`${SPEC}/spec.md`, '# Login\n\nUsers log in.\n');
    const text = JSON.stringify(requirements(), null, 2).replace('"behaviors": [', '"behaviors": : [');
    r.write(`${SPEC}/requirements.json`, text);
    const line = text.split('\n').findIndex((l) => l.includes('"behaviors": :')) + 1;
    const column = text.split('\n')[line - 1].indexOf(': :') + 3;
    const spec = new LoomRepository(r.root).load().get(SPEC)!;
    const forward = spec.status().next.find((n) => n.kind === 'forward')!;
    assert.ok(
      forward.unmet.includes(`requirements.json is not valid JSON at line ${line}, column ${column}: a second ':' after the property name "behaviors"; a value was expected`),
      forward.unmet.join('\n'),
    );
  } finally {
    r.dispose();
  }
});
