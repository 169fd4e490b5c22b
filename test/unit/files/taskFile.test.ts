import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { normalizeTaskRef, parseTaskFile, TASKS_DIR } from '../../../src/core/files/taskFile';
import { TASK_FILE_PATTERN } from '../../../src/core/files/vocabulary';

const specDir = resolve(__dirname, '../../fixtures/files/repo/specs/2026-11-20+user-login');
const fixture = (id: string) => parseTaskFile(`specs/s/tasks/${id}.md`, id, readFileSync(join(specDir, TASKS_DIR, `${id}.md`), 'utf8'));
const parse = (text: string) => parseTaskFile('specs/s/tasks/T1.md', 'T1', text);
const brief = (d: { line: number; column: number; message: string; code?: string }) => `${d.line}:${d.column} ${d.code} ${d.message.replace('specs/s/tasks/T1.md: ', '')}`;

describe('tasks/TN.md frontmatter', () => {
  it('reads inline lists, as loom writes them', () => {
    const { task, diagnostics } = fixture('T1');
    assert.deepEqual(diagnostics, []);
    assert.equal(task.id, 'T1');
    assert.equal(task.file, 'specs/s/tasks/T1.md');
    assert.deepEqual(task.owns, ['src/auth/login.ts', 'src/auth/session/']);
    assert.deepEqual(task.reads, ['src/db/users.ts']);
    assert.deepEqual(task.depends_on, []);
    assert.deepEqual(task.requirements, ['REQ-001']);
    assert.deepEqual(task.behavior_ids, ['REQ-001-B01', 'REQ-001-B02']);
    assert.equal(task.complexity, 'medium');
  });

  it('reads block lists and Chinese text', () => {
    const { task, diagnostics } = fixture('T2');
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(task.owns, ['src/auth/lockout.ts']);
    assert.deepEqual(task.reads, ['src/auth/login.ts', 'src/db/users.ts']);
    assert.deepEqual(task.depends_on, ['T1']);
    assert.deepEqual(task.requirements, ['REQ-002']);
    assert.deepEqual(task.behavior_ids, ['REQ-002-B01']);
    assert.equal(task.complexity, 'high');
    assert.equal(task.title, 'T2 账户锁定');
    assert.equal(task.description, '连续 5 次密码错误后锁定账户 15 分钟。');
  });

  it('keeps depends_on as written, T1.md or T1, for normalizeTaskRef', () => {
    const { task } = fixture('T10');
    assert.deepEqual(task.depends_on, ['T1.md', 'T2']);
    assert.deepEqual(task.depends_on.map(normalizeTaskRef), ['T1', 'T2']);
    assert.equal(normalizeTaskRef(' T3.MD '), 'T3');
  });

  it('takes the title from the first heading and the description from the first line after it', () => {
    const { task } = fixture('T1');
    assert.equal(task.title, 'T1: 登录接口');
    assert.equal(task.description, 'Implement POST /api/login: check the password hash and open a session.');
  });

  it('records the line of every top-level key', () => {
    assert.deepEqual(
      [...fixture('T2').task.keyLines],
      [
        ['owns', 2],
        ['reads', 4],
        ['depends_on', 7],
        ['requirements', 9],
        ['behavior_ids', 11],
        ['complexity', 13],
      ],
    );
  });

  it('reads quoted items, numbers, lone strings, empty and null lists', () => {
    const { task, diagnostics } = parse('---\nowns: ["src/a b.ts", \'src/c.ts\']\nreads: src/only.ts\ndepends_on:\nrequirements: ~\nbehavior_ids: [ ]\n---\n# T1\n');
    assert.deepEqual(diagnostics, []);
    assert.deepEqual([task.owns, task.reads, task.depends_on, task.requirements, task.behavior_ids], [['src/a b.ts', 'src/c.ts'], ['src/only.ts'], [], [], []]);
    assert.deepEqual(parse('---\ndepends_on: [1, 2]\nowns: ["", " src/x "]\n---\n').task.depends_on, ['1', '2']);
    assert.deepEqual(parse('---\nowns: ["", " src/x "]\n---\n').task.owns, ['src/x']);
  });

  it('reads CRLF files', () => {
    const { task, diagnostics } = parse('---\r\nowns: [a]\r\ndepends_on:\r\n  - T2.md\r\n---\r\n# 任务一\r\n\r\n实现登录\r\n');
    assert.deepEqual(diagnostics, []);
    assert.deepEqual(task.owns, ['a']);
    assert.deepEqual(task.depends_on, ['T2.md']);
    assert.equal(task.title, '任务一');
    assert.equal(task.description, '实现登录');
    assert.equal(task.keyLines.get('depends_on'), 3);
  });

  it('keeps unknown frontmatter keys', () => {
    const { task } = parse('---\nowns: [a]\nestimate: 2h\n---\n');
    assert.equal((task as unknown as Record<string, unknown>).estimate, '2h');
  });

  it('reads a file with no frontmatter: empty lists, title and description from the body', () => {
    const { task, diagnostics } = parse('# Just a title\n\nand a description\n');
    assert.deepEqual(diagnostics, []);
    assert.deepEqual([task.owns, task.reads, task.depends_on, task.requirements, task.behavior_ids], [[], [], [], [], []]);
    assert.equal(task.complexity, undefined);
    assert.equal(task.title, 'Just a title');
    assert.equal(task.description, 'and a description');
  });

  it('falls back to the id for a title', () => {
    assert.equal(parse('---\nowns: [a]\n---\nno heading here\n').task.title, 'T1');
    assert.equal(parse('---\nowns: [a]\n---\nno heading here\n').task.description, 'no heading here');
    assert.equal(parse('').task.title, 'T1');
  });

  it('skips sub-headings when looking for the description', () => {
    assert.equal(parse('---\n---\n# T1\n\n## Context\n\nThe real description.\n').task.description, 'The real description.');
  });
});

describe('tasks/TN.md problems', () => {
  it('reports broken YAML at the broken line of the file', () => {
    const text = '---\nowns: [src/a.ts]\nreads:\n  bad: : x\ndepends_on: []\n---\n# T1\n\nBody.\n';
    const { task, diagnostics } = parse(text);
    assert.deepEqual(diagnostics.map(brief), [
      '4:8 frontmatter-syntax the YAML frontmatter does not parse: incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line',
    ]);
    assert.deepEqual(task.owns, []);
    assert.equal(task.title, 'T1');
    assert.equal(task.description, 'Body.');
  });

  it('reports an unclosed inline list where the parser notices it', () => {
    const text = '---\nowns: [src/a/, src/b.ts]\nreads: [src/c.ts\ndepends_on: []\n---\n# T1\n';
    assert.deepEqual(parse(text).diagnostics.map(brief), ['4:1 frontmatter-syntax the YAML frontmatter does not parse: missed comma between flow collection entries']);
  });

  it('reports a tab-indented block list at its line', () => {
    const text = '---\nowns:\n  - a\n\t- b\n---\n';
    const d = parse(text).diagnostics;
    assert.equal(d.length, 1);
    assert.equal(d[0].code, 'frontmatter-syntax');
    assert.equal(d[0].line, 4);
  });

  it('reports a bad complexity at its key, keeping the keys that did parse', () => {
    const { task, diagnostics } = parse('---\nowns: [src/a.ts]\ncomplexity: huge\nreads: [src/b.ts]\n---\n# T1\n');
    assert.deepEqual(diagnostics.map(brief), ['3:1 schema "complexity": Invalid option: expected one of "low"|"medium"|"high"']);
    assert.deepEqual(task.owns, ['src/a.ts']);
    assert.deepEqual(task.reads, ['src/b.ts']);
    assert.equal(task.complexity, undefined);
  });

  it('reports a list of the wrong shape at its key', () => {
    const { task, diagnostics } = parse('---\nrequirements: [REQ-001]\nowns: {src: a}\n---\n');
    assert.deepEqual(diagnostics.map(brief), ['3:1 schema "owns": Invalid input: expected array or string or null']);
    assert.deepEqual(task.requirements, ['REQ-001']);
    assert.deepEqual(task.owns, []);
  });

  it('reports a list item of the wrong type at its key', () => {
    const { diagnostics } = parse('---\nowns: [a]\ndepends_on:\n  - {T1: done}\n---\n');
    assert.deepEqual(
      diagnostics.map((d) => `${d.line} ${d.code}`),
      ['3 schema'],
    );
  });

  it('reports frontmatter that is not a mapping', () => {
    assert.deepEqual(parse('---\n- a\n- b\n---\n# T1\n').diagnostics.map(brief), ['2:1 schema the frontmatter must be a mapping of keys']);
  });
});

describe('task file names', () => {
  // pipeline-engine.js listTaskIds: /^T\d+\.md$/i.
  it('match ^T\\d+\\.md$ in any case only', () => {
    for (const ok of ['T1.md', 'T10.md', 'T007.md', 't1.md', 'T1.MD']) assert.equal(TASK_FILE_PATTERN.test(ok), true, ok);
    for (const bad of ['T.md', 'T1a.md', 'notes.md', 'T1.md.bak', 'xT1.md']) assert.equal(TASK_FILE_PATTERN.test(bad), false, bad);
  });
});
