'use strict';
/**
 * VS Code in Simplified Chinese: the catalog's sentences follow vscode.env.language, so a refusal
 * from Advance or Approve, the Problems panel's entries, the status bar and the dashboard read in Chinese.
 */
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');
const { loom, settle, specPath, waitFor } = require('../helpers');

const CJK = /[\u4e00-\u9fff]/;
/** A validator's finding in the Problems panel: source Loom, its kind a code linking to the README's checks that block a move. */
const isFinding = (x) => x.source === 'Loom' && typeof x.code === 'object' && x.code.target.toString().endsWith('#which-checks-block-a-move');

suite('VS Code in Chinese (zh-cn)', () => {
  let api;
  suiteSetup(async () => {
    api = await loom();
  });

  test('VS Code runs in zh-cn', () => {
    assert.strictEqual(vscode.env.language, 'zh-cn');
  });

  test('Advance with unmet preconditions refuses in Chinese and writes nothing', async () => {
    const dir = specPath('2026-11-26+export');
    const before = fs.readFileSync(path.join(dir, 'pipeline.state.json'), 'utf8');
    const result = await vscode.commands.executeCommand('loom.advance', { specDir: dir });
    assert.strictEqual(result.status, 'refused');
    assert.ok(CJK.test(result.message), result.message);
    assert.ok(result.reasons.length > 0);
    // The guards' reasons, not only the heading, come from the core's catalog in Chinese.
    for (const reason of result.reasons) assert.ok(CJK.test(reason), reason);
    assert.strictEqual(fs.readFileSync(path.join(dir, 'pipeline.state.json'), 'utf8'), before);
  });

  test("Advance to a stage the pipeline does not allow gives the pipeline's refusal in Chinese", async () => {
    // Worded by the core (src/core/pipeline/refusals.ts), not by the host's own strings.
    const result = await vscode.commands.executeCommand('loom.advance', { specDir: specPath('2026-11-26+export'), to: 'synced', confirm: true });
    assert.strictEqual(result.status, 'refused');
    assert.match(result.message, /^detail-expansion 不能进入 synced；允许：planning$/);
  });

  test('Approve at a stage without a gate refuses in Chinese', async () => {
    const result = await vscode.commands.executeCommand('loom.approve', { specDir: specPath('2026-11-19+approval'), confirm: true });
    assert.strictEqual(result.status, 'refused');
    assert.match(result.message, /在 git-worktree 没有可批准的关卡/);
  });

  test('Advance on a failed spec says in Chinese to recover it first', async () => {
    const result = await vscode.commands.executeCommand('loom.advance', { specDir: specPath('2026-11-18+legacy'), confirm: true });
    assert.strictEqual(result.status, 'refused');
    assert.ok(CJK.test(result.message), result.message);
  });

  test('the Problems panel has Chinese entries: a task naming a behavior requirements.json does not declare', async () => {
    const dir = specPath('2026-11-20+user-login');
    const file = path.join(dir, 'tasks', 'T9.md');
    fs.writeFileSync(file, '---\nowns: [src/t9.ts]\nreads: []\ndepends_on: []\nrequirements: [REQ-001]\nbehavior_ids: [REQ-999-B01]\ncomplexity: low\n---\n# T9：未声明的行为\n\n实现 src/t9.ts。\n');
    try {
      const uri = vscode.Uri.file(file);
      const d = await waitFor('a Chinese Problems entry on T9.md', () => vscode.languages.getDiagnostics(uri).find((x) => x.source === 'Loom' && x.code === 'unknown-behavior'), 15000);
      assert.strictEqual(d.message, 'T9 引用了 behavior REQ-999-B01，但 requirements.json 未声明它');
    } finally {
      fs.rmSync(file, { force: true });
      await settle(api);
    }
  });

  test("a validator's finding in the Problems panel is worded in Chinese, its kind a code that links to the checks", async () => {
    // The executing stage's task-state-closure reports user-login's T3 as not done (as `loom-vscode validate` does).
    const finding = await waitFor(
      'a finding of the executing stage',
      () =>
        vscode.languages
          .getDiagnostics()
          .flatMap(([, list]) => list)
          .find(isFinding),
      15000,
    );
    assert.strictEqual(finding.source, 'Loom');
    assert.ok(finding.code.value, 'the finding keeps its kind as the code');
    // The finding's own words are Chinese too (src/core/messages/validators.ts).
    const findings = vscode.languages
      .getDiagnostics()
      .flatMap(([, list]) => list)
      .filter(isFinding);
    assert.ok(
      findings.some((x) => /^T\d+ 的状态为 \S+，尚未完成/.test(x.message)),
      findings.map((x) => x.message).join('\n'),
    );
  });

  // The host's own sentences come from the same catalog as the core's, in VS Code's language.
  test("the status bar's name, label and button are the host's sentences in Chinese", async () => {
    const dir = specPath('2026-11-20+user-login');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(dir, 'spec.md')));
    try {
      await waitFor('the status bar item', () => api.statusBar.activeSpecDir === dir);
      const item = api.statusBar.item;
      assert.strictEqual(item.name, 'Loom: 当前规格');
      assert.match(item.accessibilityInformation.label, /^Loom 规格 user-login，阶段 executing/);
      assert.strictEqual(item.command.title, '推进');
      assert.match(item.tooltip.value, /点击(推进|查看阻止)此规格/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  test('the dashboard gets the host language; its checklist and stage descriptions are Chinese', async () => {
    const dir = specPath('2026-11-26+export');
    await vscode.commands.executeCommand('loom.openDashboard', { specDir: dir });
    const view = api.webviews.get('dashboard', dir);
    try {
      await waitFor('the dashboard page to say ready', () => view.isReady, 20000);
      const init = await waitFor('init posted to the dashboard', () => view.posted.find((m) => m.type === 'init'), 5000);
      assert.strictEqual(init.language, 'zh');
      const forward = init.model.next.find((t) => t.kind === 'forward');
      assert.ok(forward.preconditions.length > 0);
      for (const p of forward.preconditions) assert.ok(CJK.test(p.label), p.label);
      const step = init.model.steps.find((s) => s.id === 'executing');
      assert.strictEqual(step.description, 'Subagent 编码执行（隔离派发 + 合并审查 + 增量修复）', "loom's own Chinese description");
    } finally {
      view.dispose();
    }
  });
});
