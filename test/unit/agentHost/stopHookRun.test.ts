import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

// The plugin's hooks as VS Code runs them (plugin/hooks.json): `loom-vscode stop-hook` started in
// the workspace folder, the hook's JSON on stdin, Loom's answer on stdout. At a stop Loom checks
// what Run Tasks checks before a task is done: the project's tests, and no error the session made.

const BIN = join(resolve(__dirname, '../../..'), 'bin/loom-vscode.js');
// The project's test: passes once the implementer made `src/login.ts`.
const CHECK = "const ok = require('fs').existsSync('src/login.ts'); if (!ok) console.log('FAIL login: src/login.ts is missing'); process.exit(ok ? 0 : 1);\n";

interface HookAnswer {
  decision?: string;
  reason?: string;
  continue?: boolean;
  systemMessage?: string;
  hookSpecificOutput?: { hookEventName: string; decision: string; reason: string };
}

function hook(r: TempRepo, cache: string, input: Record<string, unknown>): HookAnswer {
  const run = spawnSync(process.execPath, [BIN, 'stop-hook', '--lang', 'en'], {
    cwd: r.root,
    input: JSON.stringify({ session_id: 'session-1', cwd: r.root, ...input }),
    encoding: 'utf8',
    env: { ...process.env, LOOM_VSCODE_CACHE_DIR: cache },
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as HookAnswer;
}

function executingSpec(): TempRepo {
  const r = new TempRepo('loom-stop-run-');
  plannedSpec(r);
  r.write(`${SPEC}/pipeline.state.json`, state('executing'));
  r.write('package.json', { name: 'fixture', private: true, scripts: { test: 'node check.js' } });
  r.write('check.js', CHECK);
  return r;
}

test('Stop keeps the agent working while the task’s tests fail, with the failure, and lets it stop once they pass', () => {
  const r = executingSpec();
  const cache = mkdtempSync(join(tmpdir(), 'loom-stop-cache-'));
  try {
    assert.deepEqual(hook(r, cache, { hookEventName: 'Stop' }), { continue: true }, 'nothing begun: the tests are not the agent’s yet');
    r.write(`${SPEC}/task-states/T1.state.json`, { task_id: 'T1', spec_dir: SPEC, status: 'done', retry_count: 0 });
    const failing = hook(r, cache, { hookEventName: 'Stop' });
    assert.equal(failing.decision, 'block');
    assert.match(failing.reason!, /the tests fail \(`npm test` in .*, exit 1\)/);
    assert.match(failing.reason!, /FAIL login: src\/login\.ts is missing/, 'the agent sees the failure');
    assert.deepEqual(failing.hookSpecificOutput, { hookEventName: 'Stop', decision: 'block', reason: failing.reason });
    const sub = hook(r, cache, { hook_event_name: 'SubagentStop' });
    assert.equal(sub.hookSpecificOutput?.hookEventName, 'SubagentStop', 'the implementer subagent is held the same way');
    const second = hook(r, cache, { hookEventName: 'Stop', stop_hook_active: true });
    assert.equal(second.continue, true, 'kept once already: it stops rather than loop');
    r.write('src/login.ts', 'export const login = () => true;\n');
    assert.deepEqual(hook(r, cache, { hookEventName: 'Stop' }), { continue: true });
  } finally {
    r.dispose();
    rmSync(cache, { recursive: true, force: true });
  }
});

test('an error in a spec file the session made holds the agent; one that was there when it began does not', () => {
  const r = executingSpec();
  const cache = mkdtempSync(join(tmpdir(), 'loom-stop-cache-'));
  r.write('src/login.ts', 'export const login = () => true;\n');
  r.write(`${SPEC}/task-states/T1.state.json`, { task_id: 'T1', spec_dir: SPEC, status: 'done', retry_count: 0 });
  const goodTraceability = r.read(`${SPEC}/traceability.json`);
  r.write(`${SPEC}/handoffs/detail-expansion.json`, '{ "status": "done", ');
  try {
    assert.deepEqual(hook(r, cache, { hookEventName: 'SessionStart' }), { continue: true });
    const before = hook(r, cache, { hookEventName: 'Stop' });
    assert.equal(before.continue, true, 'the broken handoff was there before the session: not the agent’s');
    r.write(`${SPEC}/traceability.json`, goodTraceability.replace('"requirements"', '"requirements":'));
    const after = hook(r, cache, { hookEventName: 'Stop' });
    assert.equal(after.decision, 'block');
    assert.match(after.reason!, /not there when this session began/);
    assert.ok(after.reason!.includes(`${SPEC}/traceability.json:2 is not valid JSON`), after.reason);
    assert.doesNotMatch(after.reason!, /detail-expansion\.json/);
    r.write(`${SPEC}/traceability.json`, goodTraceability);
    assert.equal(hook(r, cache, { hookEventName: 'Stop' }).continue, true);
    const other = hook(r, cache, { hookEventName: 'Stop', session_id: 'session-2' });
    assert.equal(other.continue, true, 'a session whose start was not recorded holds nothing against the agent');
  } finally {
    r.dispose();
    rmSync(cache, { recursive: true, force: true });
  }
});
