import * as vscode from 'vscode';
import { fileAt } from '../../core/port/files';
import { FileTranscriptStore } from '../../core/port/executing';
import { checkpointsOf, taskTitleWithoutId } from '../../core/port/views';
import { request } from '../../core/port/request';
import { findWorktree } from '../../core/port/specs';
import { askPerson, presentRefused } from '../commands/answers';
import { createCommand, notify, type CommandArgs, type CommandContext, type CommandOutcome } from '../commands/createCommand';
import { splitSpecName } from '../format';
import type { SpecEntry } from '../specs/specRegistry';
import { t } from '../../core/port/messages';
import { revParse, taskCodeRoot } from '../../core/port/taskReview';
import { CHECKPOINT_SCHEME, checkpointUri } from './taskThreads';

const SCHEME = CHECKPOINT_SCHEME;

const feature = (e: SpecEntry) => splitSpecName(e.spec.snapshot.name).feature;

/** The tasks of the spec that have a checkpoint, for a quick pick when the command was not given one. */
function tasksWithCheckpoints(e: SpecEntry): string[] {
  return [...e.spec.snapshot.taskStates.entries()].filter(([, s]) => checkpointsOf(s).length > 0).map(([id]) => id);
}

async function pickTask(e: SpecEntry, args: CommandArgs, placeHolder: string): Promise<string | undefined> {
  if (args.taskId) return args.taskId;
  const ids = tasksWithCheckpoints(e);
  if (ids.length === 0) {
    notify('info', t('host.executing.noTaskHasCheckpointYet', { feature: feature(e) }));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    ids.map((id) => ({ label: id, description: taskTitleWithoutId(id, e.spec.snapshot.tasks.get(id)?.title ?? '') })),
    { placeHolder },
  );
  return picked?.label;
}

/**
 * Review Changes, Reject File and Rewind to Before TN: a task's checkpoint in VS Code's
 * multi-file diff; a file of it rejected (back to its state before the task, the task back to
 * its implementer in fix mode with the person's words); the feature branch rewound to before the
 * task. The last two are intents of the spec's actor, which refuses them while tasks run.
 */
export function registerTaskReviewCommands(ctx: CommandContext, storageDir: string): vscode.Disposable[] {
  const transcripts = new FileTranscriptStore(storageDir);
  const provider: vscode.TextDocumentContentProvider = {
    async provideTextDocumentContent(uri) {
      const q = new URLSearchParams(uri.query);
      return (await fileAt(q.get('worktree') ?? '', q.get('commit') ?? '', uri.path.replace(/^\//, ''))) ?? '';
    },
  };

  async function reviewChanges(args: CommandArgs, e: SpecEntry): Promise<CommandOutcome> {
    const task = await pickTask(e, args, t('host.executing.whoseChanges'));
    if (!task) return { status: 'cancelled' };
    const checkpoints = checkpointsOf(e.spec.snapshot.taskStates.get(task));
    if (!checkpoints.length) {
      const message = t('host.executing.hasNoCheckpointYetCheckpoint', { task });
      notify('info', message);
      return { status: 'refused', message, reasons: [] };
    }
    // A merged feature whose worktree is gone: its commits are read from the repository, as long as git still has them.
    const worktree = findWorktree(e.spec.snapshot) ?? taskCodeRoot(e.spec.snapshot);
    const last = checkpoints.at(-1)!.commit;
    if (!(await revParse(worktree, last).catch(() => undefined))) {
      const message = t('host.taskReview.checkpointGone', { task, commit: last.slice(0, 8) });
      notify('info', message);
      return { status: 'refused', message, reasons: [] };
    }
    // Before the task's first checkpoint, and each file as its latest checkpoint left it; the side after takes comments.
    const before = checkpoints[0].parent;
    const latest = new Map<string, string>();
    for (const cp of checkpoints) for (const f of cp.files) latest.set(f, cp.commit);
    const resources = [...latest].map(([file, commit]) => [
      vscode.Uri.file(`${worktree}/${file}`),
      checkpointUri(worktree, before, file, { spec: e.dir, task, side: 'before' }),
      checkpointUri(worktree, commit, file, { spec: e.dir, task, side: 'after' }),
    ]);
    // VS Code adds the number of files to the title itself.
    const title = t('host.executing.changes', { feature: feature(e), task });
    await vscode.commands.executeCommand('vscode.changes', title, resources);
    // Accept is nothing to do; Reject and Rewind are offered beside the diff, not in its way.
    const reject = t('view.tasks.reject');
    const rewind = t('host.executing.rewindBefore', { task });
    void vscode.window.showInformationMessage(t('host.executing.reviewingChangesKeepThemAs', { task }), reject, rewind).then((choice) => {
      if (choice === reject) void vscode.commands.executeCommand('loom.rejectFile', { specDir: e.dir, taskId: task });
      if (choice === rewind) void vscode.commands.executeCommand('loom.rewindTask', { specDir: e.dir, taskId: task });
    });
    return { status: 'done', specDir: e.dir, message: [...latest.keys()].join(', ') };
  }

  async function rejectFile(args: CommandArgs, e: SpecEntry): Promise<CommandOutcome> {
    const task = await pickTask(e, args, t('host.executing.fileWhichTask'));
    if (!task) return { status: 'cancelled' };
    let file = args.file;
    if (!file) {
      const files = [...new Set(checkpointsOf(e.spec.snapshot.taskStates.get(task)).flatMap((c) => c.files))];
      file = await vscode.window.showQuickPick(files, { placeHolder: t('host.executing.whichFileDoYouReject', { task }) });
      if (!file) return { status: 'cancelled' };
    }
    const words =
      args.words ??
      (await vscode.window.showInputBox({
        prompt: t('host.executing.whatShouldDoDifferentlyYour', { task, file }),
        ignoreFocusOut: true,
      }));
    if (words === undefined) return { status: 'cancelled' };
    const answer = await request(e.spec, { type: 'rejectFile', task, file, words });
    if (answer.kind === 'refused') return presentRefused(ctx, e, answer, 'executing');
    if (answer.kind !== 'changed') return { status: 'cancelled' };
    const run = t('ask.runTasks.ok');
    void vscode.window
      .showInformationMessage(t('host.executing.backAsWasBeforeGoes', { file, task }), run)
      .then((choice) => (choice === run ? vscode.commands.executeCommand('loom.runTasks', { specDir: e.dir }) : undefined));
    return { status: 'done', specDir: e.dir, message: `${task}: ${file}` };
  }

  async function rewindTask(args: CommandArgs, e: SpecEntry): Promise<CommandOutcome> {
    const task = await pickTask(e, args, t('host.executing.rewindBeforeWhichTask'));
    if (!task) return { status: 'cancelled' };
    let answer = await request(e.spec, { type: 'rewind', task }, args.confirm ? { confirm: true } : {});
    if (answer.kind === 'needs-confirmation') {
      if (!(await askPerson(ctx, e, answer))) return { status: 'cancelled' };
      answer = await request(e.spec, { type: 'rewind', task }, { confirm: answer.step });
    }
    if (answer.kind === 'refused') return presentRefused(ctx, e, answer, 'executing');
    if (answer.kind !== 'changed') return { status: 'cancelled' };
    notify('info', t('host.executing.backBeforePendingAgain', { feature: feature(e), task, tasks: answer.tasks.join(', ') }));
    return { status: 'done', specDir: e.dir, finished: answer.tasks, message: answer.files.join(', ') };
  }

  return [
    vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider),
    createCommand(ctx, 'loom.reviewChanges', { spec: true, writes: false, placeHolder: t('host.executing.whoseChanges') }, (a, e) => reviewChanges(a, e!)),
    createCommand(ctx, 'loom.rejectFile', { spec: true, writes: true, placeHolder: t('host.executing.whoseChanges') }, (a, e) => rejectFile(a, e!)),
    // From a transcript (its editor title): the changes of the task whose dispatch it is.
    vscode.commands.registerCommand('loom.reviewTranscriptChanges', async (uri?: vscode.Uri) => {
      const q = new URLSearchParams((uri ?? vscode.window.activeTextEditor?.document.uri)?.query ?? '');
      const spec = q.get('spec') ?? '';
      const task = transcripts.list(spec).find((d) => d.dispatchId === q.get('dispatch'))?.task;
      if (!spec || !task) {
        notify('info', t('host.executing.transcriptNotTaskHasNo'));
        return { status: 'refused', message: 'not a task transcript', reasons: [] };
      }
      return vscode.commands.executeCommand('loom.reviewChanges', { specDir: spec, taskId: task });
    }),
    createCommand(ctx, 'loom.rewindTask', { spec: true, writes: true, placeHolder: t('host.executing.whichSpecShouldGoBack') }, (a, e) => rewindTask(a, e!)),
  ];
}
