/**
 * loom_get_drift over stdio with the MCP SDK's own client: the answer `loom-vscode drift --json`
 * gives, for every synced spec or the one named.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { assertBuilt, BIN, connect, type LoomClient } from './helpers';
import { SPEC } from '../../helpers/tempRepo';
import { commit, syncedRepo } from '../drift/helpers/driftRepos';

describe('loom-vscode mcp: loom_get_drift', () => {
  const made: string[] = [];
  let root: string;
  let baseline: string;
  let changed: string;
  let c: LoomClient;
  before(async () => {
    assertBuilt();
    ({ root, baseline } = syncedRepo(made));
    changed = commit(root, 'tweak login', { 'src/login.ts': 'v3\n' });
    c = await connect(root);
  });
  after(async () => {
    await c.close();
    made.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  it('names the drifted spec, its file and commit, with the summary the tree shows; the same answer as the CLI', async () => {
    const answer = await c.call('loom_get_drift');
    assert.equal(answer.drifted, 1);
    const [spec] = answer.specs;
    assert.equal(spec.specDir, SPEC);
    assert.equal(spec.status, 'drifted');
    assert.equal(spec.summary, `1 file changed since ${baseline.slice(0, 7)}`);
    assert.deepEqual(
      spec.files.map((f: { path: string; commits: string[] }) => [f.path, f.commits]),
      [['src/login.ts', [changed]]],
    );
    const cli = JSON.parse(spawnSync(process.execPath, [BIN, 'drift', '--cwd', root, '--json'], { encoding: 'utf8' }).stdout);
    assert.deepEqual(
      answer.specs.map(({ summary: _s, ...rest }: { summary: string }) => rest),
      cli.specs,
    );
    const one = await c.call('loom_get_drift', { spec_dir: SPEC });
    assert.equal(one.specs.length, 1);
  });
});
