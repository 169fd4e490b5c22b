import * as vscode from 'vscode';
import type { LoomChatParticipant, ParticipantCommand } from './loomParticipant';
import { t } from '../../core/port/messages';

/**
 * `@loom /run [autopilot|supervised]`: Loom: Run Pipeline from the chat, on the spec the chat is
 * about. The mode is the word given, else the setting, else asked; the answer says where the run
 * stopped and why, with the one action that continues it.
 */
export class RunChatCommand implements ParticipantCommand {
  readonly name = 'run';

  async handle(participant: LoomChatParticipant, request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
    const entry = participant.resolveSpec(request, context);
    if (!entry) {
      stream.markdown(t('host.chat.whichSpecShouldRunName'));
      return {};
    }
    const word = /\b(autopilot|supervised)\b/i.exec(request.prompt)?.[1]?.toLowerCase();
    stream.progress(t('host.chat.runningPipeline', { specDir: entry.spec.snapshot.specDir }));
    const outcome = (await vscode.commands.executeCommand('loom.runPipeline', { specDir: entry.dir, ...(word ? { mode: word } : {}) })) as
      { status: string; to?: string; outcome?: string; message?: string } | undefined;
    if (outcome?.status !== 'done') {
      stream.markdown(outcome && 'message' in outcome && outcome.message ? outcome.message : t('host.chat.runDidNotStart'));
      return {};
    }
    stream.markdown(t('host.chat.runStoppedAt', { to: outcome.to ?? '-', outcome: outcome.outcome ?? '-', message: outcome.message ?? '' }));
    stream.button({ command: 'loom.openDashboard', arguments: [{ specDir: entry.dir }], title: t('host.chat.openDashboard') });
    return { metadata: { command: this.name, dir: entry.dir } };
  }
}
