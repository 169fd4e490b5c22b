import { t, type Language, type MessageKey } from '../messages';

/**
 * Loom: Check Setup: each thing a first run needs, checked in the order a run meets them, each
 * with what was found and the fix. The facts come from an environment the host supplies
 * (vscode.lm, git, the settings, the file system), so the rules are tested here without VS Code;
 * Run Pipeline asks the same check before it starts and stops at the first thing missing.
 */

export type SetupItemId = 'trust' | 'model' | 'consent' | 'tiers' | 'tools' | 'git' | 'commit' | 'testCommand' | 'worktreeLocation';

/** What the host does to fix an item (a command, a setting), named so each surface can offer it its way. */
export type SetupFixKind = 'manage-trust' | 'install-model' | 'model-access' | 'model-settings' | 'tool-settings' | 'init-repository' | 'commit' | 'test-command-setting' | 'worktree-location-setting';

/** A chat model as VS Code lists it, and whether Loom may use it (languageModelAccessInformation). */
export interface SetupModel {
  name: string;
  vendor: string;
  family: string;
  /** `not-asked`: VS Code asks the person on Loom's first request. */
  access: 'allowed' | 'denied' | 'not-asked';
}

/** The facts Check Setup reads; each is asked only when the check reaches it. */
export interface SetupEnvironment {
  trusted(): boolean;
  /** The vendor `loom.models.vendor` names, empty for any. */
  vendor(): string;
  /** The chat models available to Loom (vscode.lm.selectChatModels within the vendor). */
  chatModels(): Promise<readonly SetupModel[]>;
  /** The first tier the settings and the models cannot serve, with why (VsCodeModelSelector.check). */
  tierProblem(): Promise<{ tier: string; hint: string } | undefined>;
  /** Loom's tools as the agent sees them: those registered, those expected, and a setting that turns them off. */
  tools(): { registered: readonly string[]; expected: readonly string[]; disabledBy?: string };
  /** The workspace folder's repository: its root and HEAD, or why there is none. */
  git(): Promise<{ root?: string; head?: string; detail?: string }>;
  /** The test command a run would use (the setting, else the project's own). */
  testCommand(): string | undefined;
  /** The folder feature worktrees go in, and whether Loom can write there. */
  worktreeLocation(): Promise<{ path: string; writable: boolean; detail?: string }>;
}

export interface SetupItem {
  id: SetupItemId;
  title: string;
  /** `note`: holds, with something the person will meet (VS Code's consent dialog). */
  status: 'ok' | 'missing' | 'note';
  detail: string;
  fix?: { kind: SetupFixKind; text: string };
}

export interface SetupReport {
  items: SetupItem[];
  /** The first thing missing, where a run would stop. */
  missing?: SetupItem;
  /** The model a test request would go to: the cheapest (fewest input tokens) Loom may use. */
  testModel?: SetupModel;
}

type Step = (env: SetupEnvironment, language: Language, found: Found) => Promise<SetupItem | undefined>;
/** What the steps found that later steps build on. */
interface Found {
  models: readonly SetupModel[];
  repository: boolean;
  head?: string;
}

const TITLES = {
  trust: 'setup.trust.title',
  model: 'setup.model.title',
  consent: 'setup.consent.title',
  tiers: 'setup.tiers.title',
  tools: 'setup.tools.title',
  git: 'setup.git.title',
  commit: 'setup.commit.title',
  testCommand: 'setup.test.title',
  worktreeLocation: 'setup.worktree.title',
} as const satisfies Record<SetupItemId, MessageKey>;

const item = (id: SetupItemId, status: SetupItem['status'], detail: string, language: Language, fix?: SetupItem['fix']): SetupItem => ({
  id,
  title: t(TITLES[id], {}, language),
  status,
  detail,
  ...(fix && status === 'missing' ? { fix } : {}),
});

/** Each check in the order a run meets what it needs; a step returns nothing where an earlier one already said it. */
const STEPS: readonly Step[] = [
  async (env, language) =>
    env.trusted()
      ? item('trust', 'ok', t('setup.trust.ok', {}, language), language)
      : item('trust', 'missing', t('setup.trust.missing', {}, language), language, { kind: 'manage-trust', text: t('setup.trust.fix', {}, language) }),
  async (env, language, found) => {
    found.models = await env.chatModels();
    const vendor = env.vendor().trim();
    if (found.models.length === 0)
      return item('model', 'missing', t('setup.model.missing', { where: vendor ? t('setup.model.vendor', { vendor }, language) : '' }, language), language, {
        kind: 'install-model',
        text: t('setup.model.fix', {}, language),
      });
    const names = found.models.map((m) => m.name).join(', ');
    return item('model', 'ok', t('setup.model.ok', { count: found.models.length, names }, language), language);
  },
  async (_env, language, found) => {
    if (found.models.length === 0) return undefined;
    const allowed = found.models.find((m) => m.access === 'allowed');
    if (allowed) return item('consent', 'ok', t('setup.consent.ok', { model: allowed.name }, language), language);
    const notAsked = found.models.find((m) => m.access === 'not-asked');
    if (notAsked) return item('consent', 'note', t('setup.consent.notAsked', { model: notAsked.name }, language), language);
    return item('consent', 'missing', t('setup.consent.missing', { model: found.models[0].name }, language), language, {
      kind: 'model-access',
      text: t('setup.consent.fix', {}, language),
    });
  },
  async (env, language, found) => {
    if (found.models.length === 0) return undefined;
    const problem = await env.tierProblem();
    return problem
      ? item('tiers', 'missing', t('setup.tiers.missing', { tier: problem.tier, hint: problem.hint }, language), language, {
          kind: 'model-settings',
          text: t('setup.tiers.fix', { tier: problem.tier }, language),
        })
      : item('tiers', 'ok', t('setup.tiers.ok', {}, language), language);
  },
  async (env, language) => {
    const tools = env.tools();
    const missing = tools.expected.filter((name) => !tools.registered.includes(name));
    if (!tools.disabledBy && missing.length === 0) return item('tools', 'ok', t('setup.tools.ok', { count: tools.expected.length }, language), language);
    const why = tools.disabledBy ? t('setup.tools.disabledBy', { setting: tools.disabledBy }, language) : missing.join(', ');
    return item('tools', 'missing', t('setup.tools.missing', { missing: why }, language), language, { kind: 'tool-settings', text: t('setup.tools.fix', {}, language) });
  },
  async (env, language, found) => {
    const git = await env.git();
    found.repository = git.root !== undefined;
    if (!git.root)
      return item('git', 'missing', t('setup.git.missing', { detail: git.detail ? ` (${git.detail})` : '' }, language), language, {
        kind: 'init-repository',
        text: t('setup.git.fix', {}, language),
      });
    // The commit is its own item: a run stops there with its own fix.
    found.head = git.head;
    return item('git', 'ok', t('setup.git.ok', { root: git.root }, language), language);
  },
  async (_env, language, found) => {
    if (!found.repository) return undefined;
    const head = found.head;
    return head
      ? item('commit', 'ok', t('setup.commit.ok', { head: head.slice(0, 8) }, language), language)
      : item('commit', 'missing', t('setup.commit.missing', {}, language), language, { kind: 'commit', text: t('setup.commit.fix', {}, language) });
  },
  async (env, language) => {
    const command = env.testCommand();
    return command
      ? item('testCommand', 'ok', t('setup.test.ok', { command }, language), language)
      : item('testCommand', 'missing', t('setup.test.missing', {}, language), language, { kind: 'test-command-setting', text: t('setup.test.fix', {}, language) });
  },
  async (env, language) => {
    const where = await env.worktreeLocation();
    return where.writable
      ? item('worktreeLocation', 'ok', t('setup.worktree.ok', { path: where.path }, language), language)
      : item('worktreeLocation', 'missing', t('setup.worktree.missing', { path: where.path, detail: where.detail ?? '' }, language), language, {
          kind: 'worktree-location-setting',
          text: t('setup.worktree.fix', {}, language),
        });
  },
];

/** The item each step reports, in STEPS' order. */
const STEP_IDS: readonly SetupItemId[] = ['trust', 'model', 'consent', 'tiers', 'tools', 'git', 'commit', 'testCommand', 'worktreeLocation'];

/**
 * Checks the setup (`only`: just those items, as a run needs them). `stopAtFirst` (Run Pipeline): the check ends at the first thing missing, and
 * asks nothing after it (no git, no models asked for once the workspace is not trusted).
 */
export async function checkSetup(env: SetupEnvironment, language: Language, options: { stopAtFirst?: boolean; only?: readonly SetupItemId[] } = {}): Promise<SetupReport> {
  const found: Found = { models: [], repository: false };
  const items: SetupItem[] = [];
  for (const [i, step] of STEPS.entries()) {
    if (options.only && !options.only.includes(STEP_IDS[i])) continue;
    const result = await step(env, language, found);
    if (!result) continue;
    items.push(result);
    if (result.status === 'missing' && options.stopAtFirst) break;
  }
  const missing = items.find((i) => i.status === 'missing');
  const usable = found.models.filter((m) => m.access !== 'denied');
  return { items, ...(missing ? { missing } : {}), ...(usable.length ? { testModel: usable[0] } : {}) };
}

/** The first thing missing, as Run Pipeline says it when it does not start. */
export function setupStopMessage(missing: SetupItem, language: Language): string {
  return t('setup.stoppedAt', { item: missing.detail, fix: missing.fix?.text ?? '' }, language).trim();
}

/** One line per item, for the log and the CLI: ✓, ✗ or ! with the title and what was found, and the fix under a missing one. */
export function setupLines(report: SetupReport): string[] {
  return report.items.flatMap((i) => [`${i.status === 'ok' ? '✓' : i.status === 'note' ? '!' : '✗'} ${i.title}: ${i.detail}`, ...(i.fix ? [`    → ${i.fix.text}`] : [])]);
}

/** The part of a stage a run's needs are read from (StageDefinition satisfies it). */
interface NeedsStage {
  id: string;
  outputs: readonly string[];
  humanApproval: boolean;
}

const MODEL_ITEMS: readonly SetupItemId[] = ['model', 'consent', 'tiers'];

/**
 * What a run of Run Pipeline from `stage` needs before its next stop: the stages from there to
 * the next human-approval gate (where a run always stops), each asking for a model where it has
 * outputs to draft, for git, a commit and the worktree location where it makes the worktree, for
 * the test command where it runs tasks or verifies. A run that would stop at once (a gate whose
 * files are written) needs nothing but trust, so it is never stopped for a model it would not ask.
 */
export function runSetupNeeds(stages: readonly NeedsStage[], stage: string | null, roleOf: (id: string) => string | undefined, hasFile: (path: string) => boolean): SetupItemId[] {
  const needs = new Set<SetupItemId>(['trust']);
  const from = stages.findIndex((s) => s.id === stage);
  if (from < 0) return [...needs];
  for (const s of stages.slice(from)) {
    const role = roleOf(s.id);
    // Handoffs are Loom's own record of a stage, written without a model.
    const toDraft = s.outputs.filter((o) => !o.startsWith('handoffs/') && !o.endsWith('/') && !hasFile(o));
    if (toDraft.length || role === 'tasks') MODEL_ITEMS.forEach((i) => needs.add(i));
    if (role === 'worktree') (['git', 'commit', 'worktreeLocation'] as const).forEach((i) => needs.add(i));
    if (role === 'tasks' || role === 'verification') needs.add('testCommand');
    if (s.humanApproval) break;
  }
  return [...needs];
}
