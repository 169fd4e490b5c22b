import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { FIXTURE_REPO, FIXTURE_SPEC, scratchRepos } from './cacheFixtures';
import type { Diagnostic } from '../../../src/core/diagnostics/diagnostic';
import { sha256OfFile } from '../../../src/core/fs/sha256';
import { byTaskNumber, findSpecDirs, isDirectory, loadSpec, readSpecOnDemand, SPEC_ROOTS } from '../../../src/core/specdir/loadSpec';

const fixtureRepo = FIXTURE_REPO;
const SPEC = FIXTURE_SPEC;
const fixtureSpec = join(fixtureRepo, SPEC);
const { scratch, copyRepo } = scratchRepos('loom-load-');
const brief = (d: Diagnostic) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code}`;

describe('loadSpec on a realistic spec directory', () => {
  const s = loadSpec(fixtureRepo, fixtureSpec);

  it('reads every file without a problem', () => {
    assert.deepEqual(s.diagnostics, []);
  });

  it('names the spec', () => {
    assert.equal(s.repoRoot, fixtureRepo);
    assert.equal(s.dir, fixtureSpec);
    assert.equal(s.specDir, SPEC);
    assert.equal(s.name, '2026-11-20+user-login');
  });

  it('lists every file and folder, spec-relative, folders with a trailing slash', () => {
    for (const f of [
      'pipeline.state.json',
      'progress.md',
      'spec.md',
      'plan.md',
      'requirements.json',
      'traceability.json',
      'tasks/',
      'tasks/T1.md',
      'tasks/T2.md',
      'tasks/T10.md',
      'tasks/notes.md',
      'task-states/',
      'task-states/T10.state.json',
      'handoffs/',
      'handoffs/T1.json',
      'handoffs/brainstorming.json',
      'findings/round-1.json',
      'evidence/',
      'evidence/test.log',
      'artifact-analysis.json',
      'convergence-report.json',
      'test-report.md',
      '.loom-run.lock',
    ])
      assert.ok(s.files.has(f), f);
    assert.equal(s.files.has('verify-report.md'), false);
    assert.equal(s.files.has('tasks'), false);
  });

  it('reads the pipeline state', () => {
    assert.equal(s.stateCondition, 'ok');
    assert.equal(s.state!.current_stage, 'executing');
    assert.equal(s.state!.stage_history.length, 7);
  });

  it('reads the task files in task order, T2 before T10, and ignores other names', () => {
    assert.deepEqual([...s.tasks.keys()], ['T1', 'T2', 'T10']);
    assert.equal(s.tasks.get('T1')!.file, `${SPEC}/tasks/T1.md`);
    assert.deepEqual(s.tasks.get('T2')!.depends_on, ['T1']);
    assert.deepEqual(s.tasks.get('T10')!.depends_on, ['T1.md', 'T2']);
  });

  it('reads the task states in task order, keyed by file name', () => {
    assert.deepEqual(
      [...s.taskStates].map(([id, st]) => `${id}:${st.status}`),
      ['T1:done', 'T2:executing', 'T10:pending'],
    );
  });

  it('reads both ledgers in their object form', () => {
    assert.equal(s.requirementsCondition, 'ok');
    assert.equal(s.requirements!.form, 'object');
    assert.deepEqual(
      s.requirements!.requirements.map((r) => r.id),
      ['REQ-001', 'REQ-002'],
    );
    assert.equal(s.traceabilityCondition, 'ok');
    assert.deepEqual(
      s.traceability!.requirements.map((r) => `${r.id}:${r.tasks.join('+')}`),
      ['REQ-001:T1+T10', 'REQ-002:T2.md'],
    );
  });

  it('reads handoffs keyed by file name', () => {
    assert.deepEqual([...s.handoffs.keys()].sort(), ['T1', 'brainstorming']);
    assert.equal(s.handoffs.get('brainstorming')!.stage, 'brainstorming');
  });

  it('reads the analysis, the convergence report and the test report with its receipt', () => {
    assert.equal(s.artifactAnalysisCondition, 'ok');
    assert.equal(s.artifactAnalysis!.status, 'pass');
    assert.equal(s.convergenceReportCondition, 'ok');
    assert.equal(s.convergenceReport!.status, 'needs_another_round');
    assert.deepEqual([...s.reports.keys()], ['test-report.md']);
    const report = s.reports.get('test-report.md')!;
    assert.equal(report.file, `${SPEC}/test-report.md`);
    assert.equal(report.verdict, 'PASS');
    assert.equal(report.evidence.sha256, sha256OfFile(join(fixtureSpec, report.evidence.file!)));
  });

  it("reads loom's lock, held by a process that is gone", () => {
    assert.deepEqual(s.lock, { pid: 999999999, stale: true, raw: '999999999\n2026-11-21T08:00:00.000Z\n3f2a9c1d8e7b6a5f' });
  });
});

describe('loadSpec on a spec with several corrupt files at once', () => {
  const repo = copyRepo();
  const dir = join(repo, SPEC);
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
  // pipeline.state.json: a missing comma after line 4.
  write('pipeline.state.json', '{\n  "spec_dir": "specs/2026-11-20+user-login",\n  "pipeline_type": "feature",\n  "current_stage": "executing"\n  "loom_version": "2.3.1"\n}\n');
  // requirements.json: a status loom does not know, on line 4.
  write('requirements.json', '{\n  "requirements": {\n    "REQ-001": {\n      "status": "done",\n      "acceptance": [],\n      "behaviors": []\n    }\n  }\n}\n');
  // tasks/T2.md: broken YAML on line 3.
  write('tasks/T2.md', '---\nowns: [src/auth/lockout.ts]\nreads: : [x]\n---\n# T2 账户锁定\n');
  // task-states/T10.state.json: an unknown status on line 3.
  write('task-states/T10.state.json', '{\n  "task_id": "T10",\n  "status": "waiting"\n}\n');
  // handoffs/T1.json: truncated.
  write('handoffs/T1.json', '{\n  "status": "done",\n  "summary": "POST /api/login');
  // artifact-analysis.json: a blocker_count that is not a number, on line 3.
  write('artifact-analysis.json', '{\n  "status": "pass",\n  "blocker_count": "0"\n}\n');
  // findings/round-1.json: a trailing comma on line 2.
  write('findings/round-1.json', '{\n  "findings": [],\n}\n');
  const s = loadSpec(repo, dir);

  it('gives each corrupt file its own diagnostic, at its line', () => {
    assert.deepEqual(s.diagnostics.map(brief).sort(), [
      `${SPEC}/artifact-analysis.json:3:3 error schema`,
      `${SPEC}/findings/round-1.json:3:1 error json-syntax`,
      `${SPEC}/handoffs/T1.json:3:30 error json-syntax`,
      `${SPEC}/pipeline.state.json:5:3 error json-syntax`,
      `${SPEC}/requirements.json:4:7 error schema`,
      `${SPEC}/task-states/T10.state.json:3:3 error schema`,
      `${SPEC}/tasks/T2.md:3:8 error frontmatter-syntax`,
    ]);
  });

  it('marks the corrupt ledgers and reports invalid, never missing', () => {
    assert.equal(s.stateCondition, 'invalid');
    assert.equal(s.state, undefined);
    assert.equal(s.requirementsCondition, 'invalid');
    assert.equal(s.requirements, undefined);
    assert.equal(s.artifactAnalysisCondition, 'invalid');
    assert.equal(s.artifactAnalysis, undefined);
  });

  it('still loads every other file', () => {
    assert.equal(s.traceabilityCondition, 'ok');
    assert.deepEqual(
      s.traceability!.requirements.map((r) => r.id),
      ['REQ-001', 'REQ-002'],
    );
    assert.equal(s.convergenceReportCondition, 'ok');
    assert.deepEqual([...s.tasks.keys()], ['T1', 'T2', 'T10']);
    assert.deepEqual(s.tasks.get('T1')!.owns, ['src/auth/login.ts', 'src/auth/session/']);
    assert.equal(s.tasks.get('T2')!.title, 'T2 账户锁定');
    assert.deepEqual([...s.taskStates.keys()], ['T1', 'T2']);
    assert.deepEqual([...s.handoffs.keys()], ['brainstorming']);
    assert.equal(s.reports.get('test-report.md')!.verdict, 'PASS');
    assert.equal(s.lock!.stale, true);
  });
});

describe('loadSpec edge cases', () => {
  it('reads an empty spec directory as all missing, with no diagnostics', () => {
    const dir = join(scratch, 'empty-repo', 'specs', 'new');
    mkdirSync(dir, { recursive: true });
    const s = loadSpec(join(scratch, 'empty-repo'), dir);
    assert.equal(s.specDir, 'specs/new');
    assert.deepEqual(s.diagnostics, []);
    assert.deepEqual(
      [s.stateCondition, s.requirementsCondition, s.traceabilityCondition, s.artifactAnalysisCondition, s.convergenceReportCondition],
      ['missing', 'missing', 'missing', 'missing', 'missing'],
    );
    assert.deepEqual([s.tasks.size, s.taskStates.size, s.handoffs.size, s.reports.size, s.files.size], [0, 0, 0, 0, 0]);
    assert.equal(s.lock, undefined);
  });

  it('warns, at the task_id key, when a task state names another task', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    writeFileSync(join(dir, 'task-states', 'T3.state.json'), '{\n  "spec_dir": "specs/2026-11-20+user-login",\n  "task_id": "T4",\n  "status": "pending"\n}\n');
    const s = loadSpec(repo, dir);
    assert.deepEqual(s.diagnostics, [
      {
        file: `${SPEC}/task-states/T3.state.json`,
        line: 3,
        column: 3,
        severity: 'warning',
        code: 'task-id-mismatch',
        message: `${SPEC}/task-states/T3.state.json: task_id "T4" does not match the file name (T3)`,
      },
    ]);
    assert.equal(s.taskStates.get('T3')!.task_id, 'T4');
    assert.equal(s.taskStates.has('T4'), false);
  });

  it('is not confused by ids named like Object.prototype members', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    writeFileSync(join(dir, 'task-states', 'constructor.state.json'), '{"task_id": "constructor", "status": "blocked", "blocker": "x"}');
    writeFileSync(join(dir, 'task-states', 'toString.state.json'), '{"task_id": "toString", "status": "done"}');
    writeFileSync(join(dir, 'handoffs', 'constructor.json'), '{"status": "partial", "summary": "s"}');
    writeFileSync(join(dir, 'handoffs', '__proto__.json'), '{"status": "failed", "summary": "p"}');
    const s = loadSpec(repo, dir);
    assert.deepEqual(s.diagnostics, []);
    assert.equal(s.taskStates.get('constructor')!.status, 'blocked');
    assert.equal(s.taskStates.get('toString')!.status, 'done');
    assert.equal(s.taskStates.has('hasOwnProperty'), false);
    assert.equal(s.handoffs.get('constructor')!.status, 'partial');
    assert.equal(s.handoffs.get('__proto__')!.summary, 'p');
    assert.equal(s.handoffs.has('toString'), false);
    assert.deepEqual([...s.taskStates.keys()], ['T1', 'T2', 'T10', 'constructor', 'toString']);
  });

  it('reports a task file or task state it cannot read, and goes on', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    mkdirSync(join(dir, 'tasks', 'T5.md'));
    mkdirSync(join(dir, 'task-states', 'T5.state.json'));
    const s = loadSpec(repo, dir);
    assert.deepEqual(
      s.diagnostics.map((d) => `${brief(d)} ${d.message}`),
      [`${SPEC}/tasks/T5.md:1:1 error unreadable ${SPEC}/tasks/T5.md could not be read`, `${SPEC}/task-states/T5.state.json:1:1 error unreadable ${SPEC}/task-states/T5.state.json could not be read`],
    );
    assert.deepEqual([...s.tasks.keys()], ['T1', 'T2', 'T10']);
    assert.deepEqual([...s.taskStates.keys()], ['T1', 'T2', 'T10']);
  });

  it('reads the array forms of both ledgers', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    writeFileSync(join(dir, 'requirements.json'), JSON.stringify({ requirements: [{ id: 'REQ-001', status: 'passing', acceptance: [], behaviors: [] }] }));
    writeFileSync(join(dir, 'traceability.json'), JSON.stringify({ requirements: [{ id: 'REQ-001', task_ids: ['T1'], test_ids: ['t.test.ts#a'], receipts: ['evidence/test.log'] }] }));
    const s = loadSpec(repo, dir);
    assert.deepEqual(s.diagnostics, []);
    assert.equal(s.requirements!.form, 'array');
    assert.deepEqual(s.traceability, { form: 'array', requirements: [{ id: 'REQ-001', tasks: ['T1'], tests: ['t.test.ts#a'], evidence: ['evidence/test.log'] }] });
  });

  it('reads a task state with a byte-order mark, and a lock held by this process', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    writeFileSync(join(dir, 'task-states', 'T1.state.json'), '\ufeff{"task_id": "T1", "status": "done"}');
    writeFileSync(join(dir, '.loom-run.lock'), `${process.pid}\n2026-11-21T08:00:00.000Z\nabc`);
    const s = loadSpec(repo, dir);
    assert.deepEqual(s.diagnostics, []);
    assert.equal(s.taskStates.get('T1')!.status, 'done');
    assert.deepEqual([s.lock!.pid, s.lock!.stale], [process.pid, false]);
  });
});

describe('readSpecOnDemand (status)', () => {
  it('holds what loadSpec holds, each group read when first asked for, its problems from then on', () => {
    const repo = copyRepo();
    const dir = join(repo, SPEC);
    writeFileSync(join(dir, 'requirements.json'), '{ "requirements": [');
    const full = loadSpec(repo, dir);
    const lazy = readSpecOnDemand(repo, dir);
    assert.deepEqual(lazy.diagnostics, [], 'only the state is read yet: its problems are none');
    // The task ids come from the listing, the files unread.
    assert.deepEqual([...lazy.tasks.keys()], [...full.tasks.keys()]);
    assert.deepEqual(lazy.diagnostics, []);
    assert.equal(lazy.requirementsCondition, 'invalid');
    assert.deepEqual(lazy.diagnostics.map(brief), full.diagnostics.filter((d) => d.file.endsWith('requirements.json')).map(brief));
    lazy.readAll!();
    assert.deepEqual(lazy.diagnostics.map(brief), full.diagnostics.map(brief), 'every problem, in loadSpec’s order');
    assert.deepEqual([...lazy.taskStates.keys()], [...full.taskStates.keys()]);
    assert.deepEqual([...lazy.handoffs.keys()], [...full.handoffs.keys()]);
    assert.deepEqual(lazy.tasks.get('T2'), full.tasks.get('T2'));
  });

  it('lists evidence/ and findings/ when a name in them is asked for, or the whole listing', () => {
    const lazy = readSpecOnDemand(fixtureRepo, fixtureSpec);
    const full = loadSpec(fixtureRepo, fixtureSpec);
    assert.equal(lazy.files.has('evidence/'), true);
    assert.equal(lazy.files.has('evidence/test.log'), true);
    assert.equal(lazy.files.has('evidence/nothing.log'), false);
    assert.deepEqual(new Set(lazy.files), new Set(full.files));
    assert.equal(readSpecOnDemand(fixtureRepo, fixtureSpec).files.size, full.files.size);
    assert.ok([...readSpecOnDemand(fixtureRepo, fixtureSpec).files].includes('findings/round-1.json'));
  });
});

describe('byTaskNumber', () => {
  it('orders by task number, T2 before T10', () => {
    assert.deepEqual(['T10.md', 'T2.md', 'T1.md', 'T11.md', 'T3.md'].sort(byTaskNumber), ['T1.md', 'T2.md', 'T3.md', 'T10.md', 'T11.md']);
    assert.deepEqual(['T10.state.json', 'T9.state.json'].sort(byTaskNumber), ['T9.state.json', 'T10.state.json']);
  });

  it('falls back to plain order for names without a number, and for equal numbers', () => {
    assert.deepEqual(['b.json', 'T2.json', 'a.json', 'T02.json'].sort(byTaskNumber), ['T02.json', 'T2.json', 'a.json', 'b.json']);
    assert.equal(byTaskNumber('T1.md', 'T1.md'), 0);
  });

  it('reads a number exactly where /^T(\\d+)/ does (T, t1, TX1, T1a, T007, T١)', () => {
    const names = ['T', 't1.md', 'TX1.md', 'T1a.md', 'T007.md', 'T7.md', 'T\u06611.md', 'T12b.md', 'T3', '', 'T99999999999999999999.md', 'T1.md'];
    const reference = (a: string, b: string) => {
      const na = /^T(\d+)/.exec(a);
      const nb = /^T(\d+)/.exec(b);
      const byNumber = na && nb ? Number(na[1]) - Number(nb[1]) : 0;
      return byNumber || (a < b ? -1 : a > b ? 1 : 0);
    };
    for (const a of names) for (const b of names) assert.equal(Math.sign(byTaskNumber(a, b)), Math.sign(reference(a, b)), `${a} vs ${b}`);
  });
});

describe('findSpecDirs', () => {
  it('finds specs/* and qa/* only, skipping files, hidden folders and other roots', () => {
    assert.deepEqual([...SPEC_ROOTS], ['specs', 'qa']);
    assert.deepEqual(findSpecDirs(fixtureRepo), [join(fixtureRepo, 'qa', '2026-11-25+regression'), join(fixtureRepo, 'specs', '2026-11-20+user-login')]);
  });

  it('finds nothing in a repository without spec roots', () => {
    const repo = join(scratch, 'no-roots');
    mkdirSync(join(repo, 'src'), { recursive: true });
    assert.deepEqual(findSpecDirs(repo), []);
  });

  it('does not throw when a spec root is a file', () => {
    const repo = join(scratch, 'root-is-file');
    mkdirSync(join(repo, 'qa', 'smoke'), { recursive: true });
    writeFileSync(join(repo, 'specs'), 'not a folder');
    assert.deepEqual(findSpecDirs(repo), [join(repo, 'qa', 'smoke')]);
  });

  it('takes other roots when asked', () => {
    assert.deepEqual(findSpecDirs(fixtureRepo, ['docs']), [join(fixtureRepo, 'docs', 'specs')]);
  });

  it('isDirectory tells folders from files and missing paths', () => {
    assert.equal(isDirectory(fixtureSpec), true);
    assert.equal(isDirectory(join(fixtureSpec, 'spec.md')), false);
    assert.equal(isDirectory(join(fixtureSpec, 'nope')), false);
  });
});
