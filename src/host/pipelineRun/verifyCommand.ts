import * as vscode from 'vscode';
import { request } from '../../core/port/request';
import type { Answer } from '../../core/port/answer';
import type { VerificationResult } from '../../core/port/files';
import { presentRefused } from '../commands/answers';
import { createCommand, notify, openSpecFile, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import { splitSpecName } from '../format';
import type { SpecEntry } from '../specs/specRegistry';
import { t } from '../../core/port/messages';

/**
 * Verification by Loom, as an intent of the spec's actor: the project's build and type checks and
 * its tests (`loom.executing.testCommand`, else the project's test script) re-run in the feature
 * worktree, the logs kept under evidence/, verify-report.md written and, on PASS,
 * handoffs/verification.json. Cancel kills the running command; nothing is written then.
 */
export async function runVerification(ctx: CommandContext, e: SpecEntry, signal?: AbortSignal): Promise<Answer<'verify'>> {
  const feature = splitSpecName(e.spec.snapshot.name).feature;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('host.pipelineRun.loomVerifyingBuildTypeChecks', { feature }), cancellable: true },
    async (_progress, token) => {
      const cancelled = new AbortController();
      const sub = token.onCancellationRequested(() => cancelled.abort());
      const stop = signal ? AbortSignal.any([cancelled.signal, signal]) : cancelled.signal;
      try {
        const testCommand = ctx.config.testCommand;
        return await request(e.spec, {
          type: 'verify',
          verify: { trusted: ctx.trust.writable, writer: 'Loom for VS Code', signal: stop, ...(testCommand ? { testCommand } : {}) },
        });
      } finally {
        sub.dispose();
      }
    },
  );
}

/** What the person sees of a verification: the verdict, the report to open, and the first fix when it failed. */
export function presentVerification(ctx: CommandContext, e: SpecEntry, v: VerificationResult): CommandOutcome {
  const feature = splitSpecName(e.spec.snapshot.name).feature;
  ctx.log.component('verification').info(`${e.spec.snapshot.specDir}: verification ${v.verdict} in ${v.cwd}; ${v.fixItems.length} fix item(s)`);
  const open = { title: t('host.commands.open', { file: v.report }), run: () => openSpecFile(e, v.report) };
  if (v.verdict === 'PASS') {
    notify('info', t('host.pipelineRun.verificationPassWrote', { feature, report: v.report, handoff: v.handoff ?? '-' }), [open]);
  } else {
    const first = v.fixItems[0]?.problem ?? '';
    notify('warning', t('host.pipelineRun.verificationFailFixItems', { feature, fixItemsCount: v.fixItems.length, first }), [open]);
  }
  return { status: 'done', specDir: e.dir, outcome: v.verdict, message: v.fixItems.map((f) => f.problem).join('; ') };
}

async function verify(ctx: CommandContext, e: SpecEntry): Promise<CommandOutcome> {
  let answer: Answer<'verify'>;
  try {
    answer = await runVerification(ctx, e);
  } catch (err) {
    // Cancelled: the command was killed and nothing written.
    if (err instanceof Error && err.name === 'AbortError') return { status: 'cancelled' };
    throw err;
  }
  if (answer.kind === 'refused') return presentRefused(ctx, e, answer, 'verification');
  if (answer.kind !== 'changed') return { status: 'cancelled' };
  return presentVerification(ctx, e, answer.verification);
}

export function registerVerifyCommand(ctx: CommandContext): vscode.Disposable[] {
  return [createCommand(ctx, 'loom.verify', { spec: true, writes: true, placeHolder: t('host.pipelineRun.verifyWhichSpec') }, (_a, e) => verify(ctx, e!))];
}
