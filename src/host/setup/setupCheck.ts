import * as vscode from 'vscode';
import { displayLanguage, t } from '../../core/port/messages';
import {
  checkSetup,
  repositoryFacts,
  runSetupNeeds,
  setupLines,
  setupStopMessage,
  testCommandFact,
  worktreeLocationFacts,
  type SetupEnvironment,
  type SetupFixKind,
  type SetupItem,
  type SetupModel,
  type SetupReport,
} from '../../core/port/setupCheck';
import { COPILOT_PRICES, creditsOf, findPrice, formatCredits, readProviderPrice, withOverrides } from '../../core/port/credits';
import { createArgumentCommand, notify, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import { VsCodeModelSelector } from '../lm/modelSelector';
import type { SpecEntry } from '../specs/specRegistry';

/** Settings that turn every extension's tools off for the agent (VS Code's chat configuration). */
const TOOL_SWITCHES = ['chat.extensionTools.enabled', 'chat.agent.enabled'];

/**
 * Loom: Check Setup in VS Code: the facts of the environment (vscode.lm and the person's consent,
 * the settings, git, the worktree location) handed to the core's checks, and each fix as the
 * command or setting that makes it. Run Pipeline asks it what its run needs before it starts.
 */
export class SetupCheck {
  constructor(
    private readonly ctx: CommandContext,
    /** The extension's context: its consent to use a model, and its own tools. */
    private readonly extension: { access: vscode.LanguageModelAccessInformation; tools: readonly string[] },
  ) {}

  /** The environment of `folder` (the spec's workspace folder, else the first). */
  environment(folder: vscode.WorkspaceFolder | undefined, signal: AbortSignal): SetupEnvironment {
    const { config } = this.ctx;
    const root = folder?.uri.fsPath ?? '';
    let models: vscode.LanguageModelChat[] | undefined;
    const listed = async () => (models ??= await vscode.lm.selectChatModels(config.modelVendor.trim() ? { vendor: config.modelVendor.trim() } : {}));
    return {
      trusted: () => this.ctx.trust.writable,
      vendor: () => config.modelVendor,
      chatModels: async () => {
        // The fastest (smallest) first: the test request goes to the cheapest model Loom may use.
        const sorted = [...(await listed())].sort((a, b) => a.maxInputTokens - b.maxInputTokens);
        return sorted.map((m): SetupModel => {
          const allowed = this.extension.access.canSendRequest(m);
          return { name: m.name, vendor: m.vendor, family: m.family, access: allowed === true ? 'allowed' : allowed === false ? 'denied' : 'not-asked' };
        });
      },
      tierProblem: () =>
        new VsCodeModelSelector(() => ({ vendor: config.modelVendor, families: config.modelFamilies }), this.ctx.log.component('setup'), t('setup.request.title', { model: '' })).tierProblem(signal),
      tools: () => {
        const registered = vscode.lm.tools.map((tool) => tool.name).filter((name) => this.extension.tools.includes(name));
        const disabledBy = TOOL_SWITCHES.find((key) => vscode.workspace.getConfiguration().get<boolean>(key) === false);
        return { registered, expected: this.extension.tools, ...(disabledBy ? { disabledBy } : {}) };
      },
      git: () => (root ? repositoryFacts(root) : Promise.resolve({})),
      testCommand: () => (root ? testCommandFact(root, config.testCommand) : undefined),
      worktreeLocation: async () => worktreeLocationFacts((await repositoryFacts(root)).root ?? root, config.worktreeLocation),
    };
  }

  /** Every item, for the command and the walkthrough. */
  check(folder: vscode.WorkspaceFolder | undefined, signal: AbortSignal): Promise<SetupReport> {
    return checkSetup(this.environment(folder, signal), displayLanguage());
  }

  /**
   * Before Run Pipeline starts on `e`: what its run needs before its next stop, stopped at the
   * first thing missing; that item, or undefined when the run may start.
   */
  async missingForRun(e: SpecEntry, signal: AbortSignal): Promise<SetupItem | undefined> {
    const def = e.spec.definition;
    const files = e.spec.snapshot.files;
    const only = runSetupNeeds(
      def.stages,
      e.spec.stage,
      (id) => def.stages.find((s) => s.id === id)?.role,
      (f) => files.has(f),
    );
    const report = await checkSetup(this.environment(e.folder, signal), displayLanguage(), { stopAtFirst: true, only });
    if (report.missing) this.ctx.log.component('setup').info(`${e.spec.snapshot.specDir}: Run Pipeline not started: ${report.missing.id} (${report.missing.detail})`);
    return report.missing;
  }

  /** Run Pipeline's refusal for a missing item: one notification, with its fix as the button. */
  refuseRun(missing: SetupItem): CommandOutcome {
    const message = setupStopMessage(missing, displayLanguage());
    notify('warning', message, this.fixActions(missing));
    return { status: 'refused', message, reasons: [missing.detail], code: `setup-${missing.id}` } as CommandOutcome;
  }

  /** The button that fixes an item, where VS Code has one. */
  fixActions(item: SetupItem): { title: string; run: () => void }[] {
    const kind = item.fix?.kind;
    if (!kind) return [];
    const run = FIXES[kind];
    // A command this VS Code lacks opens Loom's settings instead of failing silently.
    return [{ title: t('host.setup.fix', { what: item.title }), run: () => void Promise.resolve(run()).catch(() => vscode.commands.executeCommand('workbench.action.openSettings', 'loom')) }];
  }
}

const settings = (query: string) => () => vscode.commands.executeCommand('workbench.action.openSettings', query);

/** What each fix opens. */
const FIXES: Readonly<Record<SetupFixKind, () => Thenable<unknown>>> = {
  'manage-trust': () => vscode.commands.executeCommand('workbench.trust.manage'),
  'install-model': () => vscode.commands.executeCommand('workbench.extensions.search', '@category:"AI" language model'),
  'model-access': () => vscode.commands.executeCommand('workbench.action.chat.manage'),
  'model-settings': settings('loom.models'),
  'tool-settings': settings('chat.extensionTools.enabled'),
  'init-repository': () => vscode.commands.executeCommand('git.init'),
  commit: () => vscode.commands.executeCommand('workbench.view.scm'),
  'test-command-setting': settings('loom.executing.testCommand'),
  'worktree-location-setting': settings('loom.worktree.location'),
};

/** One small request to the model the check picked, with its tokens: the consent asked, the model shown to answer. */
async function testRequest(model: SetupModel, justification: string, prices: unknown, token: vscode.CancellationToken): Promise<string> {
  const [chat] = await vscode.lm.selectChatModels({ vendor: model.vendor, family: model.family });
  if (!chat) return t('setup.request.failed', { model: model.name, reason: t('setup.model.missing', { where: '' }) });
  const prompt = [vscode.LanguageModelChatMessage.User(t('setup.request.prompt'))];
  const started = Date.now();
  try {
    const input = await chat.countTokens(prompt[0], token);
    const response = await chat.sendRequest(prompt, { justification }, token);
    let text = '';
    for await (const part of response.text) text += part;
    const output = await chat.countTokens(text, token);
    const said = t('setup.request.ok', { model: model.name, ms: Date.now() - started, input, output });
    // Its cost as Copilot bills it, where the model's price is known; else it stays in tokens, and says so.
    const price = findPrice(withOverrides(COPILOT_PRICES, prices), { id: chat.id, family: chat.family, name: chat.name, vendor: chat.vendor, price: readProviderPrice(chat) });
    return price
      ? `${said} ${t('setup.request.cost', { credits: formatCredits(creditsOf({ input, output }, price.price)) })} ${t('credits.priceFrom', { source: price.source })}`
      : `${said} ${t('credits.unpriced', { models: model.name, tokens: String(input + output) })}.`;
  } catch (e) {
    return t('setup.request.failed', { model: model.name, reason: e instanceof Error ? e.message : String(e) });
  }
}

interface SetupPick extends vscode.QuickPickItem {
  run?: () => Promise<void> | void;
}

/** Loom: Check Setup: each item with ✓, ! or ✗, a missing one's fix on selecting it, and the test request. */
export function registerSetupCommands(ctx: CommandContext, setup: SetupCheck): vscode.Disposable[] {
  return [
    createArgumentCommand(ctx, 'loom.checkSetup', { writes: false }, async (arg: { quiet?: boolean } | undefined) => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      const controller = new AbortController();
      const report = await setup.check(folder, controller.signal);
      const log = ctx.log.component('setup');
      for (const line of setupLines(report)) log.info(line);
      const outcome = {
        status: 'done' as const,
        message: report.missing ? t('setup.missingCount', { count: report.items.filter((i) => i.status === 'missing').length, first: report.missing.detail }) : t('setup.allGood'),
        items: report.items.map((i) => ({ id: i.id, status: i.status, title: i.title, detail: i.detail, ...(i.fix ? { fix: i.fix.text, fixKind: i.fix.kind } : {}) })),
      };
      // Scripts and tests take the report as it is; a person sees it in a list.
      if (arg?.quiet === true) return outcome as CommandOutcome;
      const picks: SetupPick[] = report.items.map((i) => ({
        label: `${i.status === 'ok' ? '$(pass)' : i.status === 'note' ? '$(info)' : '$(error)'} ${i.title}`,
        description: i.detail,
        ...(i.fix ? { detail: `$(tools) ${i.fix.text}`, run: () => setup.fixActions(i)[0]?.run() } : {}),
      }));
      const model = report.testModel;
      if (model)
        picks.push({
          label: `$(comment-discussion) ${t('setup.request.title', { model: model.name })}`,
          run: async () => {
            const cts = new vscode.CancellationTokenSource();
            try {
              const said = await testRequest(model, t('setup.request.title', { model: model.name }), ctx.config.creditPrices, cts.token);
              log.info(said);
              notify('info', said);
            } finally {
              cts.dispose();
            }
          },
        });
      const picked = await vscode.window.showQuickPick(picks, { title: `${t('setup.title')} — ${outcome.message}`, matchOnDescription: true, ignoreFocusOut: true });
      await picked?.run?.();
      return outcome as CommandOutcome;
    }),
  ];
}

/** The names of the tools package.json contributes (languageModelTools): what the agent should find. */
export function languageModelToolNames(context: vscode.ExtensionContext): string[] {
  const tools = (context.extension.packageJSON as { contributes?: { languageModelTools?: { name?: unknown }[] } }).contributes?.languageModelTools ?? [];
  return tools.map((tool) => tool.name).filter((name): name is string => typeof name === 'string');
}
