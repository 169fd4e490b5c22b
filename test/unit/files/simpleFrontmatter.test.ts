import { test } from 'node:test';
import assert from 'node:assert/strict';
import matter from 'gray-matter';
import { simpleFrontmatter } from '../../../src/core/files/simpleFrontmatter';
import { parseTaskFile, TaskFrontmatterSchema } from '../../../src/core/files/taskFile';

test('reads the flat frontmatter loom writes, and the body after it', () => {
  const text = '---\nowns: [src/a/, src/b.ts]\nreads: []\ndepends_on: [T1, T2.md]\ncomplexity: low\n---\n# T3 Title\n\nBody.\n';
  const r = simpleFrontmatter(text)!;
  assert.deepEqual(r.data, { owns: ['src/a/', 'src/b.ts'], reads: [], depends_on: ['T1', 'T2.md'], complexity: 'low' });
  assert.equal(r.body, '# T3 Title\n\nBody.\n');
  assert.equal(simpleFrontmatter(text.replace(/\n/g, '\r\n'))!.data.complexity, 'low');
});

test('leaves everything else to gray-matter', () => {
  for (const front of [
    'owns:\n  - src/a.ts', // block list
    'owns: ["src/a b.ts"]', // quotes
    'owns: [src/a.ts] # mine', // comment
    'complexity: 3', // a number
    'flag: yes', // a YAML 1.1 boolean
    'owns: [2026-01-01]', // a date
    'owns: [a, ]', // an empty item
    'owns: [a', // unclosed
    '  owns: [a]', // indentation
    'owns: [a]\nowns: [b]', // duplicate key
    'owns:', // null
    'note: a: b', // a colon inside
  ]) {
    assert.equal(simpleFrontmatter(`---\n${front}\n---\n# T\n`), undefined, front);
  }
  assert.equal(simpleFrontmatter('# no frontmatter\n'), undefined);
  assert.equal(simpleFrontmatter('---\nowns: [a]\n'), undefined, 'no closing line');
});

test('agrees with gray-matter on every input it accepts', () => {
  const words = [
    'src/a.ts',
    'src/dir/',
    'T1',
    'T12.md',
    'REQ-001',
    'REQ-001-B02',
    'low',
    'high',
    '/abs/path',
    '_x',
    'lib/v1.2/x@scope+y',
    'Yes',
    'no',
    'null',
    'True',
    '3',
    '1.5',
    '.inf',
    '~',
    'a#b',
    'a b',
    "'q'",
    '',
  ];
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  let accepted = 0;
  for (let i = 0; i < 3000; i++) {
    const lines: string[] = [];
    const keys = ['owns', 'reads', 'depends_on', 'requirements', 'behavior_ids', 'complexity', 'custom'];
    for (let k = 0; k < 1 + rand(5); k++) {
      const key = keys[rand(keys.length)];
      if (rand(3) === 0) lines.push(`${key}: ${words[rand(words.length)]}`);
      else lines.push(`${key}: [${Array.from({ length: rand(4) }, () => words[rand(words.length)]).join(', ')}]`);
      if (rand(6) === 0) lines.push('');
    }
    const text = `---\n${lines.join('\n')}\n---\n# Title\n`;
    const fast = simpleFrontmatter(text);
    if (!fast) continue;
    accepted++;
    assert.deepEqual({ ...fast.data }, matter(text, {}).data, text);
  }
  assert.ok(accepted > 300, `the fast path took ${accepted} of 3000 inputs`);
});

test('a task file read the fast way equals the same file read through gray-matter and the schema', () => {
  const text = '---\nowns: [src/a/, src/b.ts]\nreads: src/c.ts\ndepends_on: []\nbehavior_ids: [REQ-001-B01]\ncomplexity: high\nextra: kept\n---\n# T3 Title\n\nBody.\n';
  const fast = parseTaskFile('specs/x/tasks/T3.md', 'T3', text).task;
  const slow = TaskFrontmatterSchema().parse(matter(text, {}).data);
  for (const key of ['owns', 'reads', 'depends_on', 'requirements', 'behavior_ids', 'complexity', 'extra'] as const) {
    assert.deepEqual((fast as Record<string, unknown>)[key], (slow as Record<string, unknown>)[key], key);
  }
});

test('a complexity off the enum still gets the diagnostic of the schema', () => {
  const parsed = parseTaskFile('specs/x/tasks/T3.md', 'T3', '---\nowns: [a]\ncomplexity: huge\n---\n# T3\n');
  assert.equal(parsed.diagnostics.length, 1);
  assert.equal(parsed.diagnostics[0].line, 3);
  assert.deepEqual(parsed.task.owns, ['a']);
});

test('records the line of each key as it reads', () => {
  const r = simpleFrontmatter('---\nowns: [a]\n\nreads: [b]\ncomplexity: low\n---\n# T\n')!;
  assert.deepEqual(
    [...r.keyLines],
    [
      ['owns', 2],
      ['reads', 4],
      ['complexity', 5],
    ],
  );
  const viaTask = parseTaskFile('specs/x/tasks/T1.md', 'T1', '---\nowns: [a]\n\nreads: [b]\n---\n# T\n').task.keyLines;
  assert.deepEqual(
    [...viaTask],
    [
      ['owns', 2],
      ['reads', 4],
    ],
  );
});
