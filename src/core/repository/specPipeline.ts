import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createActor, type Actor } from 'xstate';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic';
import { TransitionRefusedError } from '../errors';
import { PIPELINE_STATE_FILE, type PipelineState } from '../files/pipelineState';
import { FAILED_STAGE } from '../files/vocabulary';
import { guard } from '../pipeline/guardCall';
import type { PipelineDefinition, StageDefinition } from '../pipeline/pipelineDefinition';
import { stageOf, transitionsFrom } from '../pipeline/pipelineDefinition';
import { createPipelineMachine, type PipelineMachine } from '../pipeline/pipelineMachine';
import { inferStage } from '../pipeline/stageInference';
import { completeStage, isCompleted, newPipelineState, recordReapproval } from '../pipeline/stateRecord';
import { checkTransition, nextTransitions, type TransitionCheck } from '../pipeline/transitionCheck';
import { fingerprintDeclaredPaths, isTraceabilityLedger } from '../spec/fingerprints';
import { loadSpec } from '../spec/loadSpec';
import { renewableApprovals, staleApprovals, type StaleApproval } from '../spec/staleness';
import { ARTIFACT_ANALYSIS_PASS, writeArtifactAnalysis } from '../validators/artifactAnalysis';
import { CONVERGENCE_PASS, MAX_CONVERGENCE_ROUNDS as MAX_ROUNDS, writeConvergence } from '../validators/convergence';
import type { SpecSnapshot } from '../spec/specSnapshot';
import { loomVersionOf, writePipelineState, type ProgressSources } from '../store/stateStore';

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
  next: { to: string; kind: string; interactive: boolean; ready: boolean; unmet: string[]; confirmations: string[] }[];
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

/** Loom fingerprints these on every approval, besides the steps' own files (pipeline-engine.js). */
const APPROVAL_ARTIFACTS = ['spec.md', 'requirements.json', 'plan.md', 'artifact-analysis.json', 'review-request.md', 'review-feedback.md', 'qa-cases.md', 'manual-checklist.md'];

/**
 * The files loom fingerprints when a human-approval gate is passed (`approvalArtifactPaths`): the
 * gate step's `requires`, `approval_requires` and `outputs`, the next step's `requires` and the
 * key spec files, those that exist; never traceability.json, which executing updates legitimately.
 */
export function approvalArtifacts(def: PipelineDefinition, stageId: string, snapshot: Pick<SpecSnapshot, 'dir'>): string[] {
  const candidates = [...(stageOf(def, stageId)?.approvalArtifacts ?? []), ...APPROVAL_ARTIFACTS];
  return [...new Set(candidates)]
    .filter((p) => !isTraceabilityLedger(p))
    .filter((p) => existsSync(join(snapshot.dir, p.replace(/\/$/, ''))));
}

const machines = new WeakMap<PipelineDefinition, PipelineMachine>();
function machineFor(def: PipelineDefinition): PipelineMachine {
  let m = machines.get(def);
  if (!m) machines.set(def, (m = createPipelineMachine(def)));
  return m;
}

/**
 * One spec directory driven by its XState actor. The actor is restored from loom's state file
 * (or the stage inferred from the artifacts) and every change it makes is written back in
 * loom's format.
 */
export class SpecPipeline {
  private running?: Actor<PipelineMachine>;
  readonly stage: string | null;
  readonly stageSource: SpecStatus['stage_source'];
  readonly diagnostics: Diagnostic[];

  constructor(
    readonly snapshot: SpecSnapshot,
    readonly definition: PipelineDefinition,
    private readonly progress: ProgressSources = {},
  ) {
    this.diagnostics = [...snapshot.diagnostics];
    if (snapshot.state) {
      this.stage = snapshot.state.current_stage;
      this.stageSource = 'state';
      if (this.stage !== FAILED_STAGE && !stageOf(definition, this.stage)) {
        this.diagnostics.push(diagnostic(`${snapshot.specDir}/${PIPELINE_STATE_FILE}`,
          `current_stage "${this.stage}" is not a stage of the ${definition.type} pipeline (${definition.stages.map((s) => s.id).join(', ')})`,
          { line: 1 }, 'error', 'unknown-stage'));
      }
    } else if (snapshot.stateCondition === 'invalid') {
      this.stage = null;
      this.stageSource = 'unknown';
    } else {
      this.stage = inferStage(definition, snapshot);
      this.stageSource = 'inferred';
    }
  }

  get pipelineType(): string {
    return this.definition.type;
  }

  /** The state record the next write starts from: the file's, or a fresh one for the inferred stage. */
  private baseState(now: string): PipelineState {
    return this.snapshot.state ?? newPipelineState(this.snapshot.specDir, this.definition.type, this.stage ?? this.definition.initial, now, loomVersionOf(this.snapshot.repoRoot));
  }

  /**
   * The spec's XState actor, restored from the state file and started on first use; dispose()
   * stops it. A host that keeps specs live reads this once per loaded spec.
   */
  get actor(): Actor<PipelineMachine> {
    return this.startActor(new Date().toISOString());
  }

  private startActor(now: string): Actor<PipelineMachine> {
    if (this.running) return this.running;
    const machine = machineFor(this.definition);
    const context = { snapshot: this.snapshot, state: this.baseState(now) };
    const known = this.stage === FAILED_STAGE || (this.stage !== null && stageOf(this.definition, this.stage));
    const restored = known ? machine.resolveState({ value: this.stage!, context }) : undefined;
    this.running = createActor(machine, restored ? { snapshot: restored, input: context } : { input: context });
    this.running.start();
    return this.running;
  }

  /** The transitions open from the current stage, each with its unmet preconditions. */
  next(): TransitionCheck[] {
    if (this.stage === null || (this.stage !== FAILED_STAGE && !stageOf(this.definition, this.stage))) return [];
    return nextTransitions(this.definition, this.stage, this.snapshot);
  }

  status(): SpecStatus {
    const ids = [...new Set([...this.snapshot.tasks.keys(), ...this.snapshot.taskStates.keys()])];
    return {
      spec_dir: this.snapshot.specDir,
      pipeline_type: this.definition.type,
      stage: this.stage,
      stage_source: this.stageSource,
      tasks: ids.map((id) => {
        const s = this.snapshot.taskStates.get(id);
        return { id, status: s?.status ?? 'pending', retry_count: s?.retry_count ?? 0 };
      }),
      next: this.next().map((c) => ({ to: c.to, kind: c.kind, interactive: c.interactive, ready: c.ready, unmet: c.unmet, confirmations: c.confirmations })),
      diagnostics: this.diagnostics,
    };
  }

  private requireStage(): string {
    if (this.stage === null) {
      throw new TransitionRefusedError(`${this.snapshot.specDir}/${PIPELINE_STATE_FILE} is corrupt, so the current stage is unknown; fix or restore it first`, []);
    }
    return this.stage;
  }

  /**
   * Moves to the next stage (or `to`) when its preconditions hold. Refuses, with every reason,
   * when they do not or when the stage needs a confirmation that was not given.
   */
  advance(options: { to?: string; confirm?: boolean; now?: string; reason?: string; reportsWritten?: boolean } = {}): ChangeResult {
    const from = this.requireStage();
    const now = options.now ?? new Date().toISOString();
    if (from === FAILED_STAGE) throw new TransitionRefusedError(`${this.snapshot.specDir} has failed; recover it to a stage first (${this.definition.recoveryTargets.join(', ')})`, []);
    const candidates = transitionsFrom(this.definition, from).filter((t) => t.kind === 'forward' || t.kind === 'retry');
    const current = stageOf(this.definition, from);
    // At the last stage plain Advance completes the pipeline, as loom's run --advance does.
    if (!options.to && current?.terminal && !candidates.some((t) => t.kind === 'forward')) return this.complete(current, options.confirm === true, now);
    if (candidates.length === 0) throw new TransitionRefusedError(`${this.snapshot.specDir} is at ${from}, the end of the ${this.definition.type} pipeline`, []);
    // Going back is a choice the user names with `to`; plain Advance only ever moves forward.
    const chosen = options.to ? candidates.find((t) => t.to === options.to) : candidates.find((t) => t.kind === 'forward');
    if (!chosen) {
      if (!options.to) throw new TransitionRefusedError(`${this.snapshot.specDir} is at ${from}, the last stage of the ${this.definition.type} pipeline; it can only go back to ${candidates.map((t) => t.to).join(', ')} when you name the stage`, []);
      throw new TransitionRefusedError(`${from} cannot move to ${options.to}; allowed: ${candidates.map((t) => t.to).join(', ')}`, []);
    }
    if (chosen.kind === 'forward' && !options.reportsWritten) {
      const written = this.writeStageReports(from, now);
      if (written) {
        // The guards only read: they must see the reports just written.
        const fresh = new SpecPipeline(loadSpec(this.snapshot.repoRoot, this.snapshot.dir), this.definition, this.progress);
        try {
          return fresh.advance({ ...options, now, reportsWritten: true });
        } catch (e) {
          if (e instanceof TransitionRefusedError && written.hint) throw new TransitionRefusedError(e.message, [...e.reasons, written.hint]);
          throw e;
        } finally {
          fresh.dispose();
        }
      }
    }
    const check = checkTransition(this.definition, chosen, this.snapshot, options.confirm === true);
    const reasons = [...check.unmet, ...(options.confirm ? [] : check.confirmations)];
    if (reasons.length) throw new TransitionRefusedError(`${this.snapshot.specDir} cannot move from ${from} to ${chosen.to}`, reasons);
    const approvalFingerprints = current?.humanApproval && options.confirm
      ? fingerprintDeclaredPaths(approvalArtifacts(this.definition, from, this.snapshot), { dir: this.snapshot.dir, repoRoot: this.snapshot.repoRoot })
      : undefined;
    return this.send({ type: 'ADVANCE', to: chosen.to, confirm: options.confirm === true, now, reason: options.reason, approvalFingerprints }, from, now);
  }

  /**
   * Loom's run --advance runs artifact-analysis-pass and convergence-pass, which write their
   * reports, before it decides: so does advancing here, as an explicit step before the guards,
   * which only read. Only where the stage declares the validator and is the stage loom runs it
   * at. Returns undefined when the stage writes no report.
   */
  private writeStageReports(from: string, now: string): { hint?: string } | undefined {
    const validators = stageOf(this.definition, from)?.validators ?? [];
    if (from === 'analyze-artifacts' && validators.includes(ARTIFACT_ANALYSIS_PASS)) {
      writeArtifactAnalysis(this.snapshot, { now });
      return {};
    }
    if (from === 'converge' && validators.includes(CONVERGENCE_PASS)) {
      const outcome = writeConvergence(this.snapshot, { now });
      if (outcome.report.status === 'converged') return {};
      if (outcome.escalate) return { hint: `convergence-pass: round ${outcome.report.round} of ${MAX_ROUNDS} did not converge; escalate: fail the spec or close the gaps by hand` };
      const tasks = outcome.appended.map((t) => t.id).join(', ');
      return { hint: `convergence-pass: round ${outcome.report.round} needs another round${tasks ? ` (${tasks} appended)` : ''}; go back to executing` };
    }
    return undefined;
  }

  /**
   * Advancing the last stage completes the pipeline, as loom's `run --advance` does: the stage's
   * own checks must hold, then a `terminal` history entry and `metadata.completed` are written
   * once; completing it again writes nothing.
   */
  private complete(stage: StageDefinition, confirm: boolean, now: string): ChangeResult {
    const state = this.baseState(now);
    if (isCompleted(state)) return { from: stage.id, to: stage.id, state, complete: true, alreadyComplete: true };
    const guards = [...stage.exit, guard('handoffsFresh', {}), guard('approvalsFresh', {}), ...(stage.confirmation ? [guard('confirmed', { stage: stage.id })] : [])];
    const check = checkTransition(this.definition, { from: stage.id, to: stage.id, kind: 'forward', guards }, this.snapshot, confirm);
    const reasons = [...check.unmet, ...(confirm ? [] : check.confirmations)];
    if (reasons.length) throw new TransitionRefusedError(`${this.snapshot.specDir} cannot complete ${stage.id}`, reasons);
    const completed = completeStage(state, now, confirm && stage.confirmation);
    writePipelineState(this.snapshot, completed, now, this.progress);
    return { from: stage.id, to: stage.id, state: completed, complete: true };
  }

  /**
   * Approvals of gates the spec has already left whose approved files changed since; they block
   * advancing until approved again (the current stage's own approval is renewed by leaving it).
   */
  staleApprovals(): StaleApproval[] {
    return renewableApprovals(staleApprovals(this.snapshot), this.stage);
  }

  /**
   * Approves a gate again after its approved files changed ("re-review and pass the gate again",
   * as loom's stale-approval refusal asks): the files the gate fingerprints are fingerprinted
   * anew and recorded in a new history entry of that stage; the current stage does not change.
   * `stage` may be left out when only one approval is stale.
   */
  reapprove(stage?: string, options: { now?: string; reason?: string } = {}): ReapprovalResult {
    const current = this.requireStage();
    const now = options.now ?? new Date().toISOString();
    const stale = this.staleApprovals();
    if (stale.length === 0) throw new TransitionRefusedError(`${this.snapshot.specDir} has no stale approval to renew`, []);
    if (stage === undefined && stale.length > 1) {
      throw new TransitionRefusedError(`${this.snapshot.specDir} has stale approvals of ${stale.map((a) => a.stage).join(', ')}; name the stage to approve again`, []);
    }
    const chosen = stage === undefined ? stale[0] : stale.find((a) => a.stage === stage);
    if (!chosen) {
      const why = stage === current
        ? `${stage} is the current stage: its approval is renewed by approving it (Advance with confirmation)`
        : `the approval of ${stage} is not stale; stale: ${stale.map((a) => a.stage).join(', ')}`;
      throw new TransitionRefusedError(`${this.snapshot.specDir} cannot approve ${stage} again`, [why]);
    }
    const fingerprints = fingerprintDeclaredPaths(approvalArtifacts(this.definition, chosen.stage, this.snapshot), { dir: this.snapshot.dir, repoRoot: this.snapshot.repoRoot });
    const reason = options.reason?.trim() || `approved again: ${chosen.changed.join(', ')} changed since the approval${chosen.approvedAt ? ` of ${chosen.approvedAt}` : ''}`;
    const state = recordReapproval(this.baseState(now), chosen.stage, fingerprints, now, reason);
    writePipelineState(this.snapshot, state, now, this.progress);
    return { stage: chosen.stage, changed: chosen.changed, state };
  }

  /** Records a failure from any stage; the reason goes into the history and `failure_reason`. */
  fail(reason: string, options: { now?: string; validator?: string } = {}): ChangeResult {
    const from = this.requireStage();
    const now = options.now ?? new Date().toISOString();
    if (!reason.trim()) throw new TransitionRefusedError('a failure needs a reason', []);
    if (from === FAILED_STAGE) throw new TransitionRefusedError(`${this.snapshot.specDir} has already failed`, []);
    if (!transitionsFrom(this.definition, from).some((t) => t.kind === 'fail')) {
      throw new TransitionRefusedError(`${from} is the end of the pipeline and cannot fail`, []);
    }
    return this.send({ type: 'FAIL', reason, now, validator: options.validator }, from, now);
  }

  /** Leaves `failed` for one of the stages the schema allows, when that stage's preconditions hold. */
  recover(to: string, options: { now?: string; reason?: string } = {}): ChangeResult {
    const from = this.requireStage();
    const now = options.now ?? new Date().toISOString();
    if (from !== FAILED_STAGE) throw new TransitionRefusedError(`${this.snapshot.specDir} has not failed (it is at ${from})`, []);
    const t = transitionsFrom(this.definition, FAILED_STAGE).find((x) => x.to === to);
    if (!t) throw new TransitionRefusedError(`a failed spec can recover to ${this.definition.recoveryTargets.join(', ')}, not ${to}`, []);
    const check = checkTransition(this.definition, t, this.snapshot, true);
    if (!check.ready) throw new TransitionRefusedError(`${this.snapshot.specDir} cannot recover to ${to}`, check.unmet);
    return this.send({ type: 'RECOVER', to, now, reason: options.reason }, from, now);
  }

  private send(event: Parameters<Actor<PipelineMachine>['send']>[0], from: string, now: string): ChangeResult {
    const actor = this.startActor(now);
    const before = actor.getSnapshot();
    actor.send(event);
    const after = actor.getSnapshot();
    if (after === before || after.context.state === before.context.state) {
      throw new TransitionRefusedError(`${this.snapshot.specDir}: the pipeline did not accept ${event.type} from ${from}`, []);
    }
    writePipelineState(this.snapshot, after.context.state, now, this.progress);
    return { from, to: after.context.state.current_stage, state: after.context.state };
  }

  dispose(): void {
    this.running?.stop();
    this.running = undefined;
  }
}
