import { createActor, type Actor, type InspectionEvent } from 'xstate';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { TransitionRefusedError } from '../errors';
import { PIPELINE_STATE_FILE, type PipelineState } from '../files/pipelineState';
import { WORKFLOW_FILE, type WorkflowStep } from '../files/workflow';
import { t } from '../messages';
import { FAILED_STAGE } from '../files/vocabulary';
import type { GuardRegistry } from '../pipeline/guards';
import { GuardVerdicts } from '../pipeline/guardVerdicts';
import type { PipelineDefinition } from '../pipeline/pipelineDefinition';
import { stageOf } from '../pipeline/pipelineDefinition';
import { createPipelineMachine, machineStateOf, stageOnDisk, type PipelineEvent, type PipelineMachine, type PipelineOutcome, type StateStorePort } from '../pipeline/pipelineMachine';
import { chosenTransition } from '../pipeline/refusals';
import { hasRole } from '../pipeline/stageRoles';
import { newPipelineState } from '../pipeline/stateRecord';
import { nextTransitions, type TransitionCheck } from '../pipeline/transitionCheck';
import { loadSpec, specTaskIds } from '../specdir/loadSpec';
import type { SpecCache } from '../specdir/specCache';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { renewableApprovals, staleApprovals, type StaleApproval } from '../specdir/staleness';
import { checkExecutingPreconditions } from '../executing/preconditions';
import type { ExecutingMachineInput } from '../executing/machine/executingMachine';
import { ExecutingRefusedError, type ExecutingResult } from '../executing/machine/runTypes';
import { superviseRun } from '../executing/machine/runSupervision';
import type { UserPrompts } from '../executing/ports';
import { stageWithRole } from '../pipeline/stageRoles';
import { withRunLock } from '../store/runLock';
import { assertStateWritable, loomVersionOf, writePipelineState, type ProgressSources } from '../store/stateStore';
import { ARTIFACT_ANALYSIS_PASS, writeArtifactAnalysis } from '../validators/artifactAnalysis';
import { CONVERGENCE_PASS, MAX_CONVERGENCE_ROUNDS as MAX_ROUNDS, writeConvergence } from '../validators/convergence';

export { approvalArtifacts } from '../pipeline/approvalArtifacts';

export interface TaskStatusSummary {
  id: string;
  status: string;
  retry_count: number;
}

/** What `loom-vscode status --json` prints for one spec. */
export interface SpecStatus {
  spec_dir: string;
  pipeline_type: string;
  stage: string | null;
  /** `state` when read from pipeline.state.json, `inferred` from the artifacts, `unknown` when the state file is corrupt. */
  stage_source: 'state' | 'inferred' | 'unknown';
  tasks: TaskStatusSummary[];
  /** `advice`: what the extension's own checks beyond loom's find unmet; shown, never blocking. */
  /** `compression_required`: loom 3 moves on only with the caller's word that it compressed the closed stage's context. */
  next: { to: string; kind: string; interactive: boolean; ready: boolean; unmet: string[]; confirmations: string[]; compression_required?: true; advice?: string[] }[];
  diagnostics: Diagnostic[];
}

export interface ChangeResult {
  from: string;
  to: string;
  state: PipelineState;
  /** Advancing the last stage completed the pipeline (loom's `terminal` history entry). */
  complete?: boolean;
  /** It had been completed before: nothing was written. */
  alreadyComplete?: boolean;
}

export interface ReapprovalResult {
  stage: string;
  /** The files that had changed since the approval that was superseded. */
  changed: string[];
  state: PipelineState;
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
}

/** What one facts snapshot says about the spec, derived once. */
interface Facts {
  snapshot: SpecSnapshot;
  verdicts: GuardVerdicts;
  stage: string | null;
  stageSource: SpecStatus['stage_source'];
  diagnostics: Diagnostic[];
  next?: TransitionCheck[];
  staleApprovals?: StaleApproval[];
}

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
    const diagnostics = [...snapshot.diagnostics, ...pipelineDiagnostics(this.definition, snapshot.specDir)];
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
      verdicts: new GuardVerdicts(snapshot, this.options.guards),
      stage,
      stageSource: unreadable ? 'unknown' : snapshot.state ? 'state' : snapshot.stateCondition === 'invalid' ? 'unknown' : 'inferred',
      diagnostics,
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

  get diagnostics(): Diagnostic[] {
    return this.facts.diagnostics;
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

  private get store(): StateStorePort {
    return this.options.store ?? { writeState: (facts, state, now) => writePipelineState(facts, state, now, this.options.progress) };
  }

  /** The spec's actor, restored from its state file (or the inferred stage) and started on first use. */
  get actor(): Actor<PipelineMachine> {
    if (this.running) return this.running;
    const machine = machineFor(this.definition);
    const { snapshot, verdicts, stage } = this.facts;
    const input = { facts: snapshot, verdicts, state: snapshot.state, freshState: this.freshState, store: this.store };
    const restored = machine.resolveState({ value: machineStateOf(this.definition, stage), context: input });
    this.running = createActor(machine, { snapshot: restored, input, ...(this.options.inspect ? { inspect: (e: InspectionEvent) => this.options.inspect!(e, this.snapshot.specDir) } : {}) });
    this.running.start();
    return this.running;
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

  /** Reads the spec's files again and hands them to the actor. */
  reload(): void {
    this.refresh(loadSpec(this.snapshot.repoRoot, this.snapshot.dir, this.options.cache));
  }

  /** The transitions open from the current stage, each with its unmet preconditions. */
  next(): TransitionCheck[] {
    const { stage } = this.facts;
    if (stage === null || machineStateOf(this.definition, stage) !== stage) return [];
    return (this.facts.next ??= nextTransitions(this.definition, stage, this.facts.verdicts));
  }

  status(): SpecStatus {
    const { snapshot } = this;
    const ids = specTaskIds(snapshot);
    return {
      spec_dir: snapshot.specDir,
      pipeline_type: this.definition.type,
      stage: this.stage,
      stage_source: this.stageSource,
      tasks: ids.map((id) => {
        const s = snapshot.taskStates.get(id);
        return { id, status: s?.status ?? 'pending', retry_count: s?.retry_count ?? 0 };
      }),
      next: this.next().map((c) => ({
        to: c.to,
        kind: c.kind,
        interactive: c.interactive,
        ready: c.ready,
        unmet: c.unmet,
        confirmations: c.confirmations,
        ...(c.compression.length ? { compression_required: true as const } : {}),
        ...(c.advice.length ? { advice: c.advice } : {}),
      })),
      diagnostics: this.diagnostics,
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
   * Moves to the next stage (or `to`) when its preconditions hold; at the last stage, completes the
   * pipeline. `compressionConfirmed` is the caller's word that it compressed the closed stage's
   * context, which loom 3 asks for where the step's outputs include handoffs/<stage>.json.
   */
  advance(options: { to?: string; confirm?: boolean; compressionConfirmed?: boolean; now?: string; reason?: string } = {}): ChangeResult {
    return this.change({
      type: 'ADVANCE',
      to: options.to,
      confirm: options.confirm === true,
      compressionConfirmed: options.compressionConfirmed === true,
      reason: options.reason,
      now: options.now ?? new Date().toISOString(),
    });
  }

  /** Confirms the current stage's gate and advances (recording approval fingerprints on human-approval gates). */
  approve(options: { compressionConfirmed?: boolean; now?: string; reason?: string } = {}): ChangeResult {
    return this.change({ type: 'APPROVE', compressionConfirmed: options.compressionConfirmed === true, reason: options.reason, now: options.now ?? new Date().toISOString() });
  }

  /** Records a failure from any stage; the reason goes into the history and `failure_reason`. */
  fail(reason: string, options: { now?: string; validator?: string } = {}): ChangeResult {
    return this.change({ type: 'FAIL', reason, validator: options.validator, now: options.now ?? new Date().toISOString() });
  }

  /** Leaves `failed` for one of the stages the schema allows, when that stage's preconditions hold. */
  recover(to: string, options: { now?: string; reason?: string } = {}): ChangeResult {
    return this.change({ type: 'RECOVER', to, reason: options.reason, now: options.now ?? new Date().toISOString() });
  }

  /**
   * Approves a gate again after its approved files changed ("re-review and pass the gate again",
   * as loom's stale-approval refusal asks): the stage's stale history entries get the files'
   * fingerprints in place (stateRecord.renewApprovals); the current stage does not change. `stage` may be left out when only one is stale.
   */
  reapprove(stage?: string, options: { now?: string; reason?: string } = {}): ReapprovalResult {
    const outcome = this.dispatch({ type: 'REAPPROVE', stage, reason: options.reason, now: options.now ?? new Date().toISOString() });
    return { stage: outcome.reapproved?.stage ?? outcome.from, changed: outcome.reapproved?.changed ?? [], state: outcome.state };
  }

  private change(event: PipelineEvent): ChangeResult {
    const o = this.dispatch(event);
    return { from: o.from, to: o.to, state: o.state, ...(o.change === 'complete' ? { complete: true } : {}), ...(o.alreadyComplete ? { alreadyComplete: true } : {}) };
  }

  /**
   * One change as one step under the run lock: read the files afresh, run the validators that
   * write the reports the guards read (as loom's run --advance does), send the event, and take
   * the actor's outcome. Throws TransitionRefusedError with the machine's reasons when refused.
   */
  private dispatch(event: PipelineEvent): Extract<PipelineOutcome, { kind: 'changed' }> {
    const actor = this.actor;
    let outcome: PipelineOutcome | undefined;
    let hint: string | undefined;
    this.deferred = { changed: false };
    try {
      withRunLock(
        this.snapshot,
        () => {
          this.reload();
          if (event.type === 'ADVANCE' || event.type === 'APPROVE') {
            const written = this.writeStageReports(event);
            if (written) {
              hint = written.hint;
              this.reload();
            }
          }
          actor.send(event);
          outcome = actor.getSnapshot().context.outcome;
        },
        { waitMs: this.options.lockWaitMs },
      );
      // Read back what was written, now that the lock is ours no more.
      this.reload();
    } finally {
      const { changed } = this.deferred;
      this.deferred = undefined;
      if (changed) this.notify();
    }
    if (!outcome) throw new TransitionRefusedError(t('refusal.noAnswer', { specDir: this.snapshot.specDir, event: event.type }), []);
    if (outcome.kind === 'error') throw outcome.error;
    if (outcome.kind === 'refused') {
      throw new TransitionRefusedError(outcome.message, hint ? [...outcome.reasons, hint] : outcome.reasons, { codes: outcome.codes, file: outcome.file, check: outcome.check });
    }
    return outcome;
  }

  /**
   * Loom's run --advance runs artifact-analysis-pass and convergence-pass, which write their
   * reports, before it decides: so does advancing here, only where the stage declares the
   * validator and is the stage loom runs it at. Returns undefined when nothing was written.
   */
  private writeStageReports(event: Extract<PipelineEvent, { type: 'ADVANCE' | 'APPROVE' }>): { hint?: string } | undefined {
    const from = this.stage;
    if (from === null || from === FAILED_STAGE) return undefined;
    const chosen = chosenTransition(this.definition, from, event.type === 'ADVANCE' ? event.to : undefined);
    if (chosen?.kind !== 'forward') return undefined;
    const validators = stageOf(this.definition, from)?.validators ?? [];
    if (hasRole(this.definition, from, 'analysis') && validators.includes(ARTIFACT_ANALYSIS_PASS)) {
      writeArtifactAnalysis(this.snapshot, { now: event.now });
      return {};
    }
    if (hasRole(this.definition, from, 'convergence') && validators.includes(CONVERGENCE_PASS)) {
      const outcome = writeConvergence(this.snapshot, { now: event.now });
      if (outcome.report.status === 'converged') return {};
      if (outcome.escalate) return { hint: t('refusal.convergence.escalate', { round: outcome.report.round, max: MAX_ROUNDS }) };
      const tasks = outcome.appended.map((t) => t.id).join(', ');
      return { hint: tasks ? t('refusal.convergence.anotherRoundTasks', { round: outcome.report.round, tasks }) : t('refusal.convergence.anotherRound', { round: outcome.report.round }) };
    }
    return undefined;
  }

  /**
   * Runs the tasks: the executing statechart as the child of the stage that runs tasks, under the
   * spec's run lease for the whole run. The user's questions go to `prompts` and their answers
   * back to the run; aborting `signal` is Stop Tasks. Refuses (ExecutingRefusedError) before
   * anything starts when the stage's preconditions do not hold.
   */
  async runTasks(input: Omit<ExecutingMachineInput, 'work' | 'repoRoot' | 'specDir' | 'definition'>, prompts: UserPrompts, signal: AbortSignal): Promise<ExecutingResult> {
    const stage = stageWithRole(this.definition, 'tasks');
    if (!stage) throw new TransitionRefusedError(t('run.noTaskStage', { pipeline: this.definition.type }), []);
    this.reload();
    if (this.stage !== stage.id) {
      const where = { specDir: this.snapshot.specDir, taskStage: stage.id };
      throw new TransitionRefusedError(this.stage === null ? t('run.notAtTaskStageUnknown', where) : t('run.notAtTaskStage', { ...where, stage: this.stage }), []);
    }
    const pre = checkExecutingPreconditions(this.snapshot, this.definition, input.worktree);
    if (!pre.ok) throw new ExecutingRefusedError(pre.diagnostics);
    const actor = this.actor;
    const running = { [stage.id]: 'running' } as never;
    if (actor.getSnapshot().matches(running)) throw new TransitionRefusedError(t('run.alreadyRunning', { specDir: this.snapshot.specDir }), []);
    try {
      return await superviseRun(this.snapshot, { prompts, signal, clock: input.clock, onEvent: input.onEvent }, ({ onEvent, work }) => {
        const ended = new Promise<ExecutingResult>((resolve, reject) => {
          const sub = actor.subscribe((snap) => {
            if (snap.matches(running)) return;
            sub.unsubscribe();
            const last = snap.context.lastRun;
            if (!last) reject(new TransitionRefusedError(t('run.leftWhileRunning', { specDir: this.snapshot.specDir, stage: stage.id }), []));
            else if ('error' in last) reject(last.error);
            else resolve(last.result);
          });
        });
        actor.send({
          type: 'RUN_TASKS',
          input: { ...input, repoRoot: this.snapshot.repoRoot, specDir: this.snapshot.dir, definition: this.definition, work, onEvent },
        });
        return { answer: (answer) => actor.send({ type: 'TASK_ANSWER', answer }), stop: () => actor.send({ type: 'STOP_TASKS' }), ended };
      });
    } finally {
      this.reload();
    }
  }

  /**
   * Records the steps the spec goes through from now on (`dynamic_steps`, loom's engine.adjust):
   * the stages already entered stay, in their order; the rest are replaced by `remaining`. Not a
   * stage change: the spec stays where it is, and its pipeline is rebuilt from the steps when the
   * repository reads it again. Written through the state store under the run lock.
   */
  adjustSteps(current: readonly WorkflowStep[], remaining: readonly WorkflowStep[], options: { now?: string } = {}): WorkflowStep[] {
    const now = options.now ?? new Date().toISOString();
    let merged: WorkflowStep[] = [];
    withRunLock(
      this.snapshot,
      () => {
        this.reload();
        assertStateWritable(this.snapshot);
        const state = this.snapshot.state ?? this.freshState(this.stage ?? this.definition.initial, now);
        const entered = new Set([...state.stage_history.map((h) => h.stage), state.current_stage]);
        const kept = [...current.filter((s) => entered.has(s.id)), ...remaining.filter((s) => !entered.has(s.id))];
        // The list's order is the way forward (loom's getSteps order): a `next` the old list named would skip the new steps.
        merged = kept.map((s, i) => ({ ...s, next: kept[i + 1]?.id ?? null }));
        this.store.writeState(this.snapshot, { ...state, dynamic_steps: merged, updated_at: now }, now);
      },
      { waitMs: this.options.lockWaitMs },
    );
    this.reload();
    return merged;
  }

  dispose(): void {
    this.running?.stop();
    this.running = undefined;
    this.listeners.clear();
  }
}
