import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkSetup, runSetupNeeds, setupLines, setupStopMessage, type SetupEnvironment, type SetupModel } from '../../../src/core/setupCheck/setupCheck';

const COPILOT: SetupModel = { name: 'GPT-5 mini', vendor: 'copilot', family: 'gpt-5-mini', access: 'allowed' };

/** A workspace where everything a run needs is there; each test takes one thing away. */
function healthy(overrides: Partial<SetupEnvironment> = {}): SetupEnvironment & { asked: string[] } {
  const asked: string[] = [];
  const env: SetupEnvironment = {
    trusted: () => (asked.push('trust'), true),
    vendor: () => '',
    chatModels: async () => (asked.push('models'), [COPILOT]),
    tierProblem: async () => (asked.push('tiers'), undefined),
    tools: () => (asked.push('tools'), { registered: ['loom_status', 'loom_advance'], expected: ['loom_status', 'loom_advance'] }),
    git: async () => (asked.push('git'), { root: '/work/todo', head: '0123456789abcdef' }),
    testCommand: () => (asked.push('test'), 'npm test'),
    worktreeLocation: async () => (asked.push('worktree'), { path: '/work/todo/.worktree', writable: true }),
    ...overrides,
  };
  return Object.assign(env, { asked });
}

test('a workspace with everything: every item holds, in the order a run meets them, and the test request goes to a model Loom may use', async () => {
  const report = await checkSetup(healthy(), 'en');
  assert.deepEqual(
    report.items.map((i) => [i.id, i.status]),
    [
      ['trust', 'ok'],
      ['model', 'ok'],
      ['consent', 'ok'],
      ['tiers', 'ok'],
      ['tools', 'ok'],
      ['git', 'ok'],
      ['commit', 'ok'],
      ['testCommand', 'ok'],
      ['worktreeLocation', 'ok'],
    ],
  );
  assert.equal(report.missing, undefined);
  assert.equal(report.testModel?.name, 'GPT-5 mini');
  assert.ok(setupLines(report).every((l) => l.startsWith('✓ ')));
});

/** Each failing item with what was found and its fix, in English and in Chinese. */
const CASES: { name: string; env: Partial<SetupEnvironment>; id: string; fix: string; en: RegExp[]; zh: RegExp[] }[] = [
  {
    name: 'no model',
    env: { chatModels: async () => [] },
    id: 'model',
    fix: 'install-model',
    en: [/^no chat model is available to Loom$/, /^Install and sign in to a language model provider \(GitHub Copilot Chat, for example\)/],
    zh: [/^Loom 没有可用的聊天模型$/, /^安装并登录一个语言模型提供方/],
  },
  {
    name: 'no git',
    env: { git: async () => ({ detail: 'fatal: not a git repository' }) },
    id: 'git',
    fix: 'init-repository',
    en: [/^the workspace folder is not in a git repository \(fatal: not a git repository\)$/, /^Initialize one \(Source Control: Initialize Repository, or git init\)\.$/],
    zh: [/^工作区文件夹不在 git 仓库中/, /^初始化一个仓库/],
  },
  {
    name: 'no commit',
    env: { git: async () => ({ root: '/work/todo' }) },
    id: 'commit',
    fix: 'commit',
    en: [/^the repository has no commit yet, so no feature worktree can branch from it$/, /^Commit the project’s files once/],
    zh: [/^仓库还没有提交/, /^先提交一次项目文件/],
  },
  {
    name: 'untrusted',
    env: { trusted: () => false },
    id: 'trust',
    fix: 'manage-trust',
    en: [/^the workspace is not trusted/, /^Trust the workspace \(Manage Workspace Trust\)\.$/],
    zh: [/^工作区未受信任/, /^信任此工作区/],
  },
  {
    name: 'a tier without a model',
    env: { tierProblem: async () => ({ tier: 'strongest', hint: 'no language model matches family "o9"' }) },
    id: 'tiers',
    fix: 'model-settings',
    en: [/^the strongest tier has no model: no language model matches family "o9"$/, /loom\.models\.strongest/],
    zh: [/^strongest 档位没有模型/, /loom\.models\.strongest/],
  },
  {
    name: 'tools turned off',
    env: { tools: () => ({ registered: ['loom_status'], expected: ['loom_status'], disabledBy: 'chat.extensionTools.enabled' }) },
    id: 'tools',
    fix: 'tool-settings',
    en: [/^Loom’s tools are not there for the agent: the setting chat\.extensionTools\.enabled is off$/, /Configure Tools/],
    zh: [/chat\.extensionTools\.enabled/, /配置工具/],
  },
  {
    name: 'no test command',
    env: { testCommand: () => undefined },
    id: 'testCommand',
    fix: 'test-command-setting',
    en: [/^no test command was found/, /loom\.executing\.testCommand/],
    zh: [/^未找到测试命令/, /loom\.executing\.testCommand/],
  },
  {
    name: 'a worktree location that cannot be written',
    env: { worktreeLocation: async () => ({ path: '/readonly/wt', writable: false, detail: 'EACCES: permission denied' }) },
    id: 'worktreeLocation',
    fix: 'worktree-location-setting',
    en: [/^\/readonly\/wt cannot be written: EACCES: permission denied$/, /loom\.worktree\.location/],
    zh: [/^\/readonly\/wt 无法写入/, /loom\.worktree\.location/],
  },
];

for (const c of CASES) {
  for (const language of ['en', 'zh'] as const) {
    test(`${c.name} (${language}): reported with its fix`, async () => {
      const report = await checkSetup(healthy(c.env), language);
      const missing = report.items.filter((i) => i.status === 'missing');
      assert.deepEqual(
        missing.map((i) => i.id),
        [c.id],
      );
      assert.equal(report.missing?.id, c.id);
      assert.equal(report.missing?.fix?.kind, c.fix);
      const [detail, fix] = c[language];
      assert.match(report.missing!.detail, detail);
      assert.match(report.missing!.fix!.text, fix);
      if (language === 'zh') assert.match(report.missing!.title, /[\u4e00-\u9fff]/);
    });
  }
}

test('no model: consent and tiers are not asked about; no git: the commit is not', async () => {
  const noModel = await checkSetup(healthy({ chatModels: async () => [] }), 'en');
  assert.ok(!noModel.items.some((i) => i.id === 'consent' || i.id === 'tiers'));
  const noGit = await checkSetup(healthy({ git: async () => ({}) }), 'en');
  assert.ok(!noGit.items.some((i) => i.id === 'commit'));
});

test('consent: not asked yet is a note (VS Code asks on the first request); refused is missing, with where to allow it', async () => {
  const notAsked = await checkSetup(healthy({ chatModels: async () => [{ ...COPILOT, access: 'not-asked' }] }), 'en');
  const consent = notAsked.items.find((i) => i.id === 'consent')!;
  assert.equal(consent.status, 'note');
  assert.match(consent.detail, /^VS Code will ask you once to let Loom use GPT-5 mini/);
  assert.equal(notAsked.missing, undefined);
  assert.equal(notAsked.testModel?.name, 'GPT-5 mini', 'the test request is how the person gives it');

  const denied = await checkSetup(healthy({ chatModels: async () => [{ ...COPILOT, access: 'denied' }] }), 'en');
  assert.equal(denied.missing?.id, 'consent');
  assert.equal(denied.missing?.fix?.kind, 'model-access');
  assert.equal(denied.testModel, undefined);
});

test('Run Pipeline’s check stops at the first thing missing and asks nothing after it', async () => {
  const env = healthy({ trusted: () => false });
  const report = await checkSetup(env, 'en', { stopAtFirst: true });
  assert.deepEqual(
    report.items.map((i) => i.id),
    ['trust'],
  );
  assert.deepEqual(env.asked, [], 'neither the models nor git were asked');
  assert.equal(
    setupStopMessage(report.missing!, 'en'),
    'Loom did not start the run: the workspace is not trusted, so Loom may not run the project’s commands or models. Trust the workspace (Manage Workspace Trust).',
  );
  const zh = await checkSetup(healthy({ trusted: () => false }), 'zh', { stopAtFirst: true });
  assert.equal(setupStopMessage(zh.missing!, 'zh'), 'Loom 未开始运行：工作区未受信任，Loom 不能运行项目的命令或模型。信任此工作区（管理工作区信任）。');

  const noCommit = await checkSetup(healthy({ git: async () => ({ root: '/work/todo' }) }), 'en', { stopAtFirst: true });
  assert.equal(noCommit.items.at(-1)?.id, 'commit');
  assert.ok(!noCommit.items.some((i) => i.id === 'testCommand'));
});

const STAGES = [
  { id: 'brainstorming', outputs: ['spec.md', 'requirements.json'], humanApproval: true },
  { id: 'planning', outputs: ['plan.md', 'tasks/'], humanApproval: false },
  { id: 'git-worktree', outputs: [], humanApproval: false },
  { id: 'executing', outputs: ['test-report.md', 'handoffs/executing.json'], humanApproval: false },
  { id: 'verification', outputs: ['verify-report.md'], humanApproval: true },
];
const ROLES = new Map([
  ['git-worktree', 'worktree'],
  ['executing', 'tasks'],
  ['verification', 'verification'],
]);
const roleOf = (id: string) => ROLES.get(id);

test('what a run needs before its next stop: a gate whose files are written needs no model; drafting does; the worktree and the tasks ahead need git and a test command', () => {
  const written = new Set(['spec.md', 'requirements.json']);
  assert.deepEqual(
    runSetupNeeds(STAGES, 'brainstorming', roleOf, (f) => written.has(f)),
    ['trust'],
    'the run stops at the gate at once',
  );
  assert.deepEqual(
    runSetupNeeds(STAGES, 'brainstorming', roleOf, () => false),
    ['trust', 'model', 'consent', 'tiers'],
  );
  assert.deepEqual(runSetupNeeds(STAGES, 'planning', roleOf, () => false).sort(), ['commit', 'consent', 'git', 'model', 'testCommand', 'tiers', 'trust', 'worktreeLocation']);
  assert.deepEqual(
    runSetupNeeds(STAGES, null, roleOf, () => false),
    ['trust'],
  );
});

test('only what the run needs is checked: no model asked about for a run that stops at its gate at once', async () => {
  const env = healthy({ chatModels: async () => [] });
  const report = await checkSetup(env, 'en', { stopAtFirst: true, only: ['trust'] });
  assert.deepEqual(
    report.items.map((i) => i.id),
    ['trust'],
  );
  assert.equal(report.missing, undefined);
  assert.deepEqual(env.asked, ['trust']);
});
