import { recordedCredits, type SpecCredits } from '../credits/pricing';
import { createActor, transition, type Actor, type InspectionEvent } from 'xstate';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { SpecLockedError, TransitionRefusedError } from '../errors';
import { PIPELINE_STATE_FILE, type PipelineState } from '../files/pipelineState';
import { WORKFLOW_FILE } from '../files/workflow';
import { t } from '../messages';
import { advancePassesGate } from '../pipeline/chooseTransition';
import type { GuardRegistry } from '../pipeline/guards';
import { GuardVerdicts } from '../pipeline/guardVerdicts';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { createPipelineMachine, machineStateOf, stageOnDisk, type PipelineEmitted, type PipelineEvent, type PipelineMachine, type StateStorePort } from '../pipeline/pipelineMachine';
import { hasRole } from '../pipeline/stageRoles';
import { newPipelineState } from '../pipeline/stateRecord';
import { DEFAULT_TEAM_RULES, type TeamRules } from '../pipeline/teamRules';
import { nextTransitions, type TransitionCheck } from '../pipeline/transitionCheck';
import type { Answer, NeedsConfirmation, Preview, Refused } from '../port/answer';
import { eventOf, type LongIntent, type RunPorts } from '../port/events';
import { INTENT_OPERATIONS, type IntentOperation } from '../port/intentTable';
import type { ExecutingEvent } from '../executing/events';
import { currentSteps } from './currentSteps';
import { codeCommitOf, headCommitOf } from '../drift/baseline';
import type { Intent, RequestOptions } from '../port/intent';
import { loadSpec, specTaskIds } from '../specdir/loadSpec';
import type { SpecCache } from '../specdir/specCache';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { renewableApprovals, staleApprovals, type StaleApproval } from '../specdir/staleness';
import { withRequestReads } from '../fs/requestReads';
import { superviseRun } from '../executing/machine/runSupervision';
import { writeSpecFiles } from '../store/specFiles';
import { acquireRunLock, heldElsewhere, readRunLock, RUN_LOCK_FILE, withRunLock } from '../store/runLock';
import { loomVersionOf, refreshLoomHandoff, writeHandoffRecord, writePipelineState, writeTaskState, type ProgressSources } from '../store/stateStore';

export { approvalArtifacts } from '../pipeline/approvalArtifacts';

export interface TaskStatusSummary {
  id: string;
  status: string;
  retry_count: number;
}

/** What `loom-vscode status --json` prints for one spec. */
const withCredits = (metadata: Record<string, unknown> | undefined) => {
  const credits = recordedCredits(metadata);
  return credits ? { credits } : {};
};

export interface SpecStatus {
  spec_dir: string;
  pipeline_type: string;
  stage: string | null;
  /** `state` when read from pipeline.state.json, `inferred` from the artifacts, `unknown` when the state file is corrupt. */
  stage_source: 'state' | 'inferred' | 'unknown';
  tasks: TaskStatusSummary[];
  /** `advice`: what the extension's own checks beyond loom's find unmet; shown, never blocking. */
  /** `compression_required`: loom 3 moves on only with the caller's word that it compressed the closed stage's context. */
  /** `approval_gate`: the move leaves a human-approval gate, which Approve takes (never Advance). */
  next: { to: string; kind: string; interactive: boolean; ready: boolean; unmet: string[]; confirmations: string[]; approval_gate?: true; compression_required?: true; advice?: string[] }[];
  diagnostics: Diagnostic[];
  /** What its runs cost in AI credits, once a run priced its requests (issue 49). */
  credits?: SpecCredits;
}

export interface SpecPipelineOptions {
  progress?: ProgressSources;
  /** The meaning of each named guard; tests count or swap them. */
  guards?: GuardRegistry;
  /** `loom.debug.inspectMachines`: every event and transition of the actor. */
  inspect?: (event: InspectionEvent, specDir: string) => void;
  /**
   * How long a change waits for another process's run lock, in ms (a short-lived CLI waits a
   * little for loom's millisecond writes; the extension host never blocks).
   */
  lockWaitMs?: number;
  /** Where changes are written; loom's state files by default. */
  store?: StateStorePort;
  /** Parses of unchanged files, reused when the spec is read again. */
  cache?: SpecCache;
  /** The team's rules for the repository (teamRules.ts), which the actor's guards enforce; read at each derivation when a function. */
  rules?: TeamRules | (() => TeamRules);
}

/** What one facts snapshot says about the spec, derived once. */
interface Facts {
  snapshot: SpecSnapshot;
  verdicts: GuardVerdicts;
  stage: string | null;
  stageSource: SpecStatus['stage_source'];
  /** What the pipeline says of the spec's files (its state names no stage of it, the workflow does not read). */
  pipelineDiagnostics: Diagnostic[];
  /** The files' problems with the pipeline's, for the files' list they were made from (a spec read on demand reads more later). */
  diagnostics?: { files: Diagnostic[]; all: Diagnostic[] };
  next?: TransitionCheck[];
  /** The moves as loom's advance checks them, up to what blocks each first (firstBlocker). */
  blockers?: TransitionCheck[];
  staleApprovals?: StaleApproval[];
}

/**
 * How much `status` tells: `summary` (the default), what the answer needs, each move checked up to
 * what blocks it first and the problems of the files that read; `full`, every check of every move
 * and the problems of every file of the spec (what `validate` lists of its files).
 */
export type StatusDetail = 'summary' | 'full';

/**
 * Why a spec's pipeline is unknown, in one sentence: workflow.yaml does not read (its errors are
 * listed on it), or it gives no steps for the spec's type (the reason itself).
 */
export function workflowRefusal(def: PipelineDefinition, specDir: string): string {
  const problems = def.problems ?? [];
  return problems.length === 1 ? problems[0].message : t('workflow.specUnreadable', { file: WORKFLOW_FILE, spec: specDir });
}

/**
 * What the spec's pipeline says of the spec, filed on the spec's own state file: the workflow's
 * own problems are listed once, on workflow.yaml, not again for every spec that uses it.
 */
function pipelineDiagnostics(def: PipelineDefinition, specDir: string): Diagnostic[] {
  const file = `${specDir}/${PIPELINE_STATE_FILE}`;
  const out: Diagnostic[] = [];
  // A workflow.yaml that does not read is told on it; a type it lacks is told on the spec, once.
  if (def.problems?.length) out.push(diagnostic(file, workflowRefusal(def, specDir), { line: 1 }, 'error', 'workflow-unreadable'));
  return out;
}

/** The refusal or question a pure transition would emit; undefined when it would change the spec. */
function emittedAnswer(actions: readonly { type: string }[]): Refused | NeedsConfirmation | undefined {
  for (const a of actions) {
    const emitted = (a as { params?: { event?: PipelineEmitted } }).params?.event;
    if (a.type === 'xstate.emit' && emitted?.type === 'answer' && emitted.answer && emitted.answer.kind !== 'changed') return emitted.answer;
  }
  return undefined;
}

/**
 * Another process (or another reader of the spec in this window) holds the spec's run lock: a
 * refusal that says so, and that the tasks are running where the lock says it is held for a run.
 */
function lockedAnswer(spec: SpecPipeline, e: SpecLockedError): Refused {
  const lock = readRunLock(spec.snapshot.dir);
  // This process holds it for a run of another reader of the spec (runLease), or the lock says a run holds it.
  const running = e.pid === process.pid || lock?.run === true;
  const message = running ? t('refusal.tasksRunningElsewhere', { specDir: spec.snapshot.specDir, pid: e.pid }) : e.message;
  return {
    kind: 'refused',
    code: running ? 'tasks-running' : 'spec-locked',
    codes: [running ? 'tasks-running' : 'spec-locked'],
    message,
    reasons: [],
    remedies: [],
    file: RUN_LOCK_FILE,
    stage: spec.stage,
    holder: { pid: e.pid },
  };
}

/** The intents whose work is a run of the executing machinery. */
type RunIntent = Extract<Intent, { type: 'runTasks' | 'answerReview' }>;

const rulesOf = (rules: SpecPipelineOptions['rules']): TeamRules => (typeof rules === 'function' ? rules() : (rules ?? DEFAULT_TEAM_RULES));

/** Each request's id, which its answer carries back. */
let requests = 0;

/**
 * The emitted answer as the request's answer: the error an effect met is thrown (a file that
 * could not be written); an event the actor did not answer is a bug, said plainly.
 */
function answerOf(heard: PipelineEmitted | undefined, specDir: string, event: string): Answer {
  if (!heard) throw new TransitionRefusedError(t('refusal.noAnswer', { specDir, event }), []);
  if (heard.error !== undefined) throw heard.error;
  return heard.answer!;
}

const machines = new WeakMap<PipelineDefinition, PipelineMachine>();
function machineFor(def: PipelineDefinition): PipelineMachine {
  let m = machines.get(def);
  if (!m) machines.set(def, (m = createPipelineMachine(def)));
  return m;
}

/**
 * One spec directory and its XState actor, the single authority over the spec's pipeline. Every
 * change (advance, approve, approve again, fail, recover, complete) is an event to the actor;
 * its guards read one facts snapshot and its actions write through the state store. Reading
 * the state, deciding and writing happen as one step under the spec's run lock. The views read
 * the facts and the guards' verdicts from here, evaluated once per change of the files.
 */
export class SpecPipeline {
  private running?: Actor<PipelineMachine>;
  private facts: Facts;
  private readonly listeners = new Set<() => void>();
  /** Inside one change the files are read up to three times; the views hear of it once, at the end. */
  private deferred?: { changed: boolean };

  constructor(
    snapshot: SpecSnapshot,
    readonly definition: PipelineDefinition,
    private readonly options: SpecPipelineOptions = {},
  ) {
    this.facts = this.derive(snapshot);
  }

  private derive(snapshot: SpecSnapshot): Facts {
    const unreadable = (this.definition.problems?.length ?? 0) > 0;
    // A pipeline that cannot be read puts the spec at no known stage (its steps are what loom follows).
    const stage = unreadable ? null : stageOnDisk(this.definition, snapshot);
    const diagnostics = pipelineDiagnostics(this.definition, snapshot.specDir);
    if (snapshot.state && stage !== null && machineStateOf(this.definition, stage) !== stage) {
      diagnostics.push(
        diagnostic(
          `${snapshot.specDir}/${PIPELINE_STATE_FILE}`,
          `current_stage "${stage}" is not a stage of the ${this.definition.type} pipeline (${this.definition.stages.map((s) => s.id).join(', ')})`,
          { line: 1 },
          'error',
          'unknown-stage',
        ),
      );
    }
    return {
      snapshot,
      verdicts: new GuardVerdicts(snapshot, this.options.guards, rulesOf(this.options.rules)),
      stage,
      stageSource: unreadable ? 'unknown' : snapshot.state ? 'state' : snapshot.stateCondition === 'invalid' ? 'unknown' : 'inferred',
      pipelineDiagnostics: diagnostics,
    };
  }

  get snapshot(): SpecSnapshot {
    return this.facts.snapshot;
  }

  /** The current stage as the files say; null when pipeline.state.json cannot be read. */
  get stage(): string | null {
    return this.facts.stage;
  }

  get stageSource(): SpecStatus['stage_source'] {
    return this.facts.stageSource;
  }

  /** The problems of the spec's files (those read so far, for a spec read on demand) and of its pipeline. */
  get diagnostics(): Diagnostic[] {
    const files = this.facts.snapshot.diagnostics;
    if (this.facts.diagnostics?.files !== files) this.facts.diagnostics = { files, all: [...files, ...this.facts.pipelineDiagnostics] };
    return this.facts.diagnostics.all;
  }

  /** The guards' verdicts on the current facts. */
  get verdicts(): GuardVerdicts {
    return this.facts.verdicts;
  }

  get pipelineType(): string {
    return this.definition.type;
  }

  /** A state record for a spec that has none yet, at its inferred stage. */
  private readonly freshState = (stage: string, now: string): PipelineState => newPipelineState(this.snapshot.specDir, this.definition.type, stage, now, loomVersionOf(this.snapshot.repoRoot));

  /** Where the actor's effects write: loom's state files, through the one state store, under the run lock. */
  private get store(): StateStorePort {
    return (
      this.options.store ?? {
        writeState: (facts, state, now) => writePipelineState(facts, state, now, this.options.progress),
        updateState: (facts, change, now) =>
          withRunLock(
            facts,
            () => {
              const fresh = loadSpec(facts.repoRoot, facts.dir);
              const state = change(fresh);
              if (state) writePipelineState(fresh, state, now, this.options.progress);
              return state;
            },
            { waitMs: this.options.lockWaitMs },
          ),
        writeTaskState: (facts, state, now) => writeTaskState(facts, state, now, this.options.progress),
        writeHandoff: (facts, name, handoff, now) => writeHandoffRecord(facts, name, handoff, now, this.options.progress),
        refreshHandoff: (facts, name, handoff) => refreshLoomHandoff(facts, name, handoff),
        writeReport: (facts, files) => writeSpecFiles(facts, files),
        read: (facts) => loadSpec(facts.repoRoot, facts.dir, this.options.cache),
      }
    );
  }

  /** The spec's actor, restored from its state file (or the inferred stage) and started on first use. */
  get actor(): Actor<PipelineMachine> {
    if (this.running) return this.running;
    const machine = machineFor(this.definition);
    const { snapshot, verdicts, stage } = this.facts;
    const input = { facts: snapshot, verdicts, state: snapshot.state, freshState: this.freshState, store: this.store, followFiles: () => this.readFiles() };
    const restored = machine.resolveState({ value: machineStateOf(this.definition, stage), context: input });
    const actor = createActor(machine, { snapshot: restored, input, ...(this.options.inspect ? { inspect: (e: InspectionEvent) => this.options.inspect!(e, this.snapshot.specDir) } : {}) });
    // An actor that stopped on an error (a bug, never a refusal: effects answer their own errors)
    // is made again from the files at the next request.
    actor.subscribe({ error: () => (this.running === actor ? (this.running = undefined) : undefined) });
    this.running = actor;
    actor.start();
    return actor;
  }

  /** Called after the facts changed (a reload, a change the actor made). */
  onDidChange(listener: () => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** The spec's files changed: the actor follows the new facts (and the stage they name). */
  refresh(snapshot: SpecSnapshot): void {
    if (snapshot === this.facts.snapshot) return;
    this.facts = this.derive(snapshot);
    this.running?.send({ type: 'FILES_CHANGED', facts: snapshot, verdicts: this.facts.verdicts, state: snapshot.state });
    if (this.deferred) this.deferred.changed = true;
    else this.notify();
  }

  private notify(): void {
    for (const l of this.listeners) l();
  }

  /**
   * The funnel's own read of the spec's files (inside a request: each file once, see
   * requestReads). A request and `change` read what they wrote themselves and tell
   * the views once; a change from outside (loom's CLI, an editor, git) is read through the
   * repository (LoomRepository.reload, `refresh`), in the extension by the folder's watcher only.
   */
  private readFiles(): void {
    this.refresh(loadSpec(this.snapshot.repoRoot, this.snapshot.dir, this.options.cache));
  }

  /**
   * A write beside the intents (a spec's review threads, a task's review, accepted drafts, a
   * stage's transcript), through the funnel as a request's: made holding the spec's run lock, each
   * file read once for the whole change (requestReads), the spec's files read once after it and
   * the views told once. `current` gives the spec's files as they are at that moment (what the
   * write already wrote included), for a write that decides from them.
   */
  change<T>(write: (current: () => SpecSnapshot) => T): T {
    let outcome = { error: undefined } as { value: T } | { error: unknown };
    const current = () => {
      this.readFiles();
      return this.snapshot;
    };
    // A write that failed halfway (drafts written, their handoff refused) is read and told too.
    this.told(
      this.underLock(() => {
        try {
          outcome = { value: write(current) };
        } catch (error) {
          outcome = { error };
        }
      }),
    );
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  }

  /** The views hear of a change once: now, or at the end of the request this one is part of. */
  private told(changed: boolean): void {
    if (!changed) return;
    if (this.deferred) this.deferred.changed = true;
    else this.notify();
  }

  /** The transitions open from the current stage, each with its unmet preconditions. */
  next(): TransitionCheck[] {
    const { stage } = this.facts;
    if (stage === null || machineStateOf(this.definition, stage) !== stage) return [];
    return (this.facts.next ??= nextTransitions(this.definition, stage, this.facts.verdicts));
  }

  /**
   * The moves open from the current stage as loom's advance checks them, each up to what blocks it
   * first (firstBlocker): what `status` says, reading no file a check past that reads.
   */
  blockers(): TransitionCheck[] {
    const { stage } = this.facts;
    if (stage === null || machineStateOf(this.definition, stage) !== stage) return [];
    return (this.facts.blockers ??= nextTransitions(this.definition, stage, this.facts.verdicts, 'first-blocker'));
  }

  /**
   * Where the spec stands: its stage, its tasks, each move with what blocks it, and the problems of
   * the files that took (StatusDetail). Read on demand (readSpecOnDemand), the spec's other files
   * are not read: their problems are `validate`'s, or `full`'s.
   */
  status(detail: StatusDetail = 'summary'): SpecStatus {
    const { snapshot } = this;
    if (detail === 'full') snapshot.readAll?.();
    // The task states first: the answer reads them anyway, and a move that reads them then names one that cannot be read.
    const tasks = specTaskIds(snapshot).map((id) => {
      const s = snapshot.taskStates.get(id);
      return { id, status: s?.status ?? 'pending', retry_count: s?.retry_count ?? 0 };
    });
    const next = detail === 'full' ? this.next() : this.blockers();
    return {
      spec_dir: snapshot.specDir,
      pipeline_type: this.definition.type,
      stage: this.stage,
      stage_source: this.stageSource,
      tasks,
      next: next.map((c) => ({
        to: c.to,
        kind: c.kind,
        interactive: c.interactive,
        ready: c.ready,
        unmet: c.unmet,
        confirmations: c.confirmations,
        ...(this.stage !== null && c.kind === 'forward' && advancePassesGate(this.definition, this.stage, c.to) ? { approval_gate: true as const } : {}),
        ...(c.compression.length ? { compression_required: true as const } : {}),
        ...(c.advice.length ? { advice: c.advice } : {}),
      })),
      diagnostics: this.diagnostics,
      ...withCredits(snapshot.state?.metadata),
    };
  }

  /**
   * Approvals whose approved files changed since (every history entry, as loom 3 checks them);
   * they block advancing until approved again.
   */
  staleApprovals(): StaleApproval[] {
    return (this.facts.staleApprovals ??= renewableApprovals(staleApprovals(this.snapshot), this.stage));
  }

  /**
   * The one way in: an intent of any surface, sent to the spec's actor, which answers it (see
   * src/core/port/request.ts). One body for every intent, as the git extension runs every verb
   * through `run(operation)`: INTENT_OPERATIONS says which intents run a job, supervise a run or
   * have the stage reports written first. Each is decided in one step under the spec's run lock (a
   * lock another process holds is the answer): the spec read once, the event sent, the actor's
   * emitted answer taken (the actor writes the stage reports loom's `run --advance` writes first,
   * as the move's first effect). A job or a run answers when it ends, the lock (a run's lease)
   * held until then, so that what its effect writes is written under it. The views hear of the
   * request once, when it is answered.
   */
  async request<I extends Intent>(intent: I, options: RequestOptions = {}): Promise<Answer<I['type']>> {
    const op = INTENT_OPERATIONS[intent.type];
    const now = options.now ?? new Date().toISOString();
    const id = `r${++requests}`;
    const asked = this.withCurrentSteps(intent);
    if (options.codeCommit === undefined && this.mayReachSync(intent)) options = { ...options, codeCommit: await codeCommitOf(this.snapshot) };
    if (options.codeCommit === undefined && intent.type === 'moveBaseline') options = { ...options, codeCommit: await headCommitOf(this.snapshot.repoRoot) };
    if (op.model) {
      const noModel = await this.modelMissing(asked as RunIntent, options, id, now);
      if (noModel) return noModel;
    }
    if (op.run) return (await this.supervise(asked as RunIntent, options, id, now)) as Answer<I['type']>;
    if (!op.long) return this.decide(eventOf(asked, options, id, now), op) as Answer<I['type']>;
    // A job's effect writes what the job did when it ends: the request holds the run lock until
    // then, so that those writes are made under it, as every other effect's are.
    let release: () => void;
    try {
      release = acquireRunLock(this.snapshot, { waitMs: this.options.lockWaitMs, now });
    } catch (e) {
      if (e instanceof SpecLockedError) return lockedAnswer(this, e) as Answer<I['type']>;
      throw e;
    }
    const end = this.nextAnswer(id);
    try {
      const decided = this.decideLocked(eventOf(asked, options, id, now), op);
      if ('locked' in decided) return decided.locked as Answer<I['type']>;
      // Refused (or answered at once): the views heard of it already; else they hear when the job's effect answered.
      if (decided.heard) return this.answered(decided, intent.type) as Answer<I['type']>;
      try {
        return answerOf(await end.answer, this.snapshot.specDir, intent.type) as Answer<I['type']>;
      } finally {
        // What the job's effect wrote: the spec's one read after it, and the views' one notification.
        this.readFiles();
      }
    } finally {
      end.stop();
      release();
    }
  }

  /** A move from here may reach the stage that syncs, whose drift baseline is the commit the code is at then. */
  private mayReachSync(intent: Intent): boolean {
    if (intent.type !== 'advance' && intent.type !== 'approve') return false;
    const from = this.stage;
    return this.definition.transitions.some((x) => x.from === from && hasRole(this.definition, x.to, 'sync'));
  }

  /** The steps a spec follows now are its own: worked out here when the caller of Adjust Steps did not give them. */
  private withCurrentSteps<I extends Intent>(intent: I): I {
    return intent.type === 'adjustSteps' && !intent.current ? { ...intent, current: currentSteps(this) } : intent;
  }

  /** Where the spec is and its pipeline, for an event that starts a run. */
  private get place(): RunPorts {
    return { repoRoot: this.snapshot.repoRoot, specDir: this.snapshot.dir, definition: this.definition };
  }

  /**
   * What the actor would answer, without doing it: the same guards on the files as they are now,
   * through XState's pure `transition` (no action runs, nothing is written). For a surface that
   * must show a person what is about to happen before the intent is sent (VS Code's confirmation
   * of a language-model tool). The stage reports loom writes before a move are not written, so the
   * answer to the request itself may still differ; it is the request that decides.
   */
  preview(intent: Exclude<Intent, { type: LongIntent }>, options: RequestOptions = {}): Preview {
    // A read-only request: its one read of the spec, for the files as they are now.
    this.readFiles();
    // Another live process holds the spec: the request would be refused for it, so the preview is.
    const lock = this.snapshot.lock;
    if (lock && !lock.stale && lock.pid !== process.pid) return lockedAnswer(this, heldElsewhere(this.snapshot, lock));
    const event = eventOf(this.withCurrentSteps(intent), options, `p${++requests}`, options.now ?? new Date().toISOString());
    // Nothing is written: the move is decided on the reports as they are.
    return this.wouldAnswer(event.type === 'ADVANCE' || event.type === 'APPROVE' ? { ...event, reportsDone: {} } : event) ?? { kind: 'would-change' };
  }

  /** The refusal or question the actor would emit for `event` on the facts as they are; undefined when it would take it. */
  private wouldAnswer(event: PipelineEvent): Refused | NeedsConfirmation | undefined {
    const [, actions] = transition(machineFor(this.definition), this.actor.getSnapshot(), event);
    return emittedAnswer(actions);
  }

  /**
   * `request`, for an intent the actor answers at once (all but the long ones), for a caller that
   * holds the run lock itself and must write in one step (accepted drafts and the handoffs they rework).
   */
  requestNow<I extends Exclude<Intent, { type: LongIntent }>>(intent: I, options: RequestOptions = {}): Answer<I['type']> {
    const id = `r${++requests}`;
    return this.decide(eventOf(this.withCurrentSteps(intent), options, id, options.now ?? new Date().toISOString()), INTENT_OPERATIONS[intent.type]) as Answer<I['type']>;
  }

  /** An intent answered at once: decided under the run lock, its answer taken (a lock held elsewhere is the answer). */
  private decide(event: PipelineEvent, op: IntentOperation): Answer {
    const decided = this.decideLocked(event, op);
    return 'locked' in decided ? decided.locked : this.answered(decided, event.type);
  }

  /** The emitted answer (a convergence round's findings are the actor's own reasons already). */
  private answered(decided: { heard?: PipelineEmitted }, event: string): Answer {
    return answerOf(decided.heard, this.snapshot.specDir, event);
  }

  /**
   * The one decision of a request: under the run lock, the spec read once, the event sent and
   * the actor's emitted answer heard
   * (none yet: a job or a run the actor started answers when it ends). The views hear of it at
   * once when it was answered; a job's or a run's request tells them when it ends.
   */
  private decideLocked(event: PipelineEvent, op: IntentOperation): { heard?: PipelineEmitted } | { locked: Refused } {
    let heard: PipelineEmitted | undefined;
    let changed: boolean;
    try {
      changed = this.underLock(() => {
        heard = this.hear((event as { id?: string }).id, () => {
          this.readFiles();
          // The stage reports are the move's first effect (the actor's); a move the table says writes none is marked so.
          this.actor.send((event.type === 'ADVANCE' || event.type === 'APPROVE') && !op.stageReports ? { ...event, reportsDone: {} } : event);
        });
      });
    } catch (e) {
      // Held by another process: the spec is not changed, and the answer says by whom.
      if (e instanceof SpecLockedError) return { locked: lockedAnswer(this, e) };
      throw e;
    }
    // Inside a change (accepted drafts writing their handoff), the views hear at the end of it.
    if (heard || !op.long) this.told(changed);
    return { heard };
  }

  /**
   * Runs `send` holding the run lock, each file read once (requestReads), then takes what was
   * written; whether the facts changed is returned, for the request to tell the views once.
   */
  private underLock(send: () => void): boolean {
    const outer = this.deferred;
    this.deferred = { changed: false };
    try {
      withRequestReads(() => {
        withRunLock(this.snapshot, send, { waitMs: this.options.lockWaitMs });
        this.readFiles();
      });
      return this.deferred.changed;
    } finally {
      this.deferred = outer;
    }
  }

  /** The answer the actor emits for request `id` while `send` runs (undefined when it emitted none yet). */
  private hear(id: string | undefined, send: () => void): PipelineEmitted | undefined {
    let heard: PipelineEmitted | undefined;
    const sub = this.actor.on('answer', (e) => {
      if (e.id === id) heard ??= e;
    });
    try {
      send();
    } finally {
      sub.unsubscribe();
    }
    return heard;
  }

  /** The answer the actor emits for request `id` from now on. */
  private nextAnswer(id: string): { answer: Promise<PipelineEmitted>; stop: () => void } {
    let stop = () => undefined as void;
    const answer = new Promise<PipelineEmitted>((resolve) => {
      const sub = this.actor.on('answer', (e) => {
        if (e.id !== id) return;
        sub.unsubscribe();
        resolve(e);
      });
      stop = () => sub.unsubscribe();
    });
    return { answer, stop };
  }

  /**
   * Run Tasks and Answer Review: the executing statechart as the child of the stage. The actor
   * decides under the run lock (the stage, a run already going, the preconditions, the person's
   * agreement to send the tasks to a model; for a review, review-feedback.md, the worktree,
   * trust); once it started the run, the spec's run lease is held until the run ends, the person's
   * questions go to `prompts` and their answers back to the run, the views follow what the run
   * writes, and the answer is the actor's when the run ended.
   */
  private async supervise(asked: RunIntent, options: RequestOptions, id: string, now: string): Promise<Answer> {
    const { prompts, signal, clock, onEvent } = asked.type === 'runTasks' ? asked.run : asked.answer.run;
    const op = INTENT_OPERATIONS[asked.type];
    const end = this.nextAnswer(id);
    let decided: { heard?: PipelineEmitted } | { locked: Refused } = {};
    let started = false;
    try {
      const ended = await superviseRun<PipelineEmitted>(this.snapshot, { prompts, signal, clock, onEvent: this.following(onEvent) }, ({ onEvent, work }) => {
        decided = this.decideLocked(eventOf(asked, options, id, now, { ...this.place, work, onEvent }), op);
        if ('locked' in decided || decided.heard) return undefined;
        started = true;
        const actor = this.actor;
        return {
          answer: (answer) => actor.send({ type: 'TASK_ANSWER', answer }),
          stop: () => actor.send({ type: 'STOP_TASKS' }),
          ended: asked.type === 'runTasks' ? end.answer.then((e) => this.runEnded(e)) : end.answer,
        };
      });
      if (ended === undefined) {
        // Refused (or answered at once): no run was started. Read through a cast: it was set in the callback.
        const at = decided as { heard?: PipelineEmitted } | { locked: Refused };
        return 'locked' in at ? at.locked : this.answered(at, asked.type);
      }
      // Driven elsewhere: what the actor says of the run is the answer (its own run going on, a
      // precondition); if it would start one, the lock is why it does not.
      if ('locked' in ended) {
        this.readFiles();
        return this.wouldAnswer(eventOf(asked, options, id, now, this.place)) ?? lockedAnswer(this, ended.locked);
      }
      return answerOf(ended, this.snapshot.specDir, asked.type);
    } finally {
      end.stop();
      // What the run wrote: the views hear of it once more, as it ended.
      if (started) this.readFiles();
    }
  }

  /** How a run of Run Tasks ended: its result, or why not (an error; the spec left the stage while it ran). */
  private runEnded(e: PipelineEmitted): PipelineEmitted {
    if (e.error !== undefined) throw e.error;
    if (e.answer?.kind !== 'changed') throw new TransitionRefusedError(t('run.leftWhileRunning', { specDir: this.snapshot.specDir, stage: this.stage ?? '?' }), []);
    return e;
  }

  /** The run's events, and the spec read again after those that wrote (a task's state, a checkpoint, the test report): the views follow the run. */
  private following(onEvent: ((e: ExecutingEvent) => void) | undefined): (e: ExecutingEvent) => void {
    return (e) => {
      onEvent?.(e);
      if (e.type === 'task-status' || e.type === 'checkpoint' || e.type === 'test-report') this.readFiles();
    };
  }

  /**
   * Run Tasks the actor would take (start it, or ask the person first) needs a model for every
   * tier: that is checked before the person is asked, and before anything is written, so a run
   * that cannot start leaves every file as it was. What the actor refuses for is said first (a
   * missing approval, a worktree), since that is what the person must do before any model helps.
   */
  private async modelMissing(intent: RunIntent, options: RequestOptions, id: string, now: string): Promise<Refused | undefined> {
    if (intent.type !== 'runTasks' || !intent.run.models.check) return undefined;
    // On the facts the spec follows (every request and change tells it, the watcher the rest): the run itself is decided on one read under the lock.
    if (this.wouldAnswer(eventOf(intent, options, id, now, this.place))?.kind === 'refused') return undefined;
    const reason = await intent.run.models.check(intent.run.signal);
    if (reason === undefined) return undefined;
    return {
      kind: 'refused',
      code: 'no-model',
      codes: ['no-model'],
      message: t('run.noModel', { specDir: this.snapshot.specDir, reason }),
      reasons: [reason],
      remedies: [{ kind: 'model-settings' }],
      stage: this.stage,
    };
  }

  dispose(): void {
    this.running?.stop();
    this.running = undefined;
    this.listeners.clear();
  }
}
