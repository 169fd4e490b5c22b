import type { Diagnostic } from '../diagnostics/diagnostic';
import { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MINUTES, type Workflow, type WorkflowDefaults, type WorkflowStep } from '../files/workflow';
import { FAILED_STAGE, REVIEW_FEEDBACK_FILE } from '../files/vocabulary';
import { specRelative } from '../fs/paths';
import { guard, guardKey, type GuardCall } from './guardCall';
import type { PipelineSchemaFile, PipelineStateDefinition, StageOutput } from './pipelineSchema';
import { compilePrecondition } from './preconditionGuards';
import { guardInputs } from './guardInputs';
import { roleOf, type StageRole } from './stageRoles';
import { CONVERGENCE_PASS, MAX_CONVERGENCE_ROUNDS } from '../validators/convergence';
import { IMPLICIT_VALIDATORS } from '../validators/validators';

export { MAX_CONVERGENCE_ROUNDS };

export interface StageDefinition {
  id: string;
  description?: string;
  skill?: string | null;
  /** The part the stage plays in loom's pipeline, when it is one of the special stages. */
  role?: StageRole;
  /** Leaving the stage needs the user's explicit confirmation (interactive stage or human-approval gate). */
  confirmation: boolean;
  humanApproval: boolean;
  /**
   * The extension's checks block here as loom's do: the stage has no workflow step (the schema
   * drives it), or its step (or the workflow's defaults) says `strict_checks: true`.
   */
  strict: boolean;
  /** Checks to enter the stage that block: the step's `requires` (and, when strict, the schema's preconditions). */
  enter: GuardCall[];
  /** The schema's preconditions for entering, when they are advice. */
  enterAdvice: GuardCall[];
  /** Checks to leave it forward that block: outputs, `gate_verdict`, validators, `approval_requires`. */
  exit: GuardCall[];
  /** The schema's outputs and exit preconditions, when they are advice. */
  exitAdvice: GuardCall[];
  /** Spec-relative files the stage produces: the step's (which loom checks on leaving), then the schema's. */
  outputs: string[];
  /** Spec-relative files the workflow step `requires` to be entered (loom's `requires`). */
  requires: string[];
  /** Preconditions stated in words the core cannot check; shown and confirmed by the user. */
  manualChecks: string[];
  /** The same, when they are advice: shown, not asked. */
  manualAdvice: string[];
  validators: string[];
  /** `approval_requires`: files that must exist, free of placeholders, before the gate is passed. */
  approvalRequires: string[];
  /**
   * The step's own files loom fingerprints when its gate is passed (`requires`, `approval_requires`,
   * `outputs`, and the next step's `requires`); the key spec files are added at approval time.
   */
  approvalArtifacts: string[];
  maxRetries: number;
  timeoutMinutes: number;
  terminal: boolean;
  /**
   * Moving on from the stage needs the caller's word that it compressed the closed stage's
   * context: loom 3's `_requiresStageCompression`, the step's outputs include
   * `handoffs/<stage>.json` (as its default template declares for nearly every step).
   */
  compressionRequired: boolean;
}

export type TransitionKind = 'forward' | 'retry' | 'fail' | 'recover';

export interface TransitionDefinition {
  from: string;
  to: string;
  kind: TransitionKind;
  /**
   * Taken by a plain Advance (no stage named) when its guards hold: loom 3's automatic return
   * from converge to executing. Otherwise only a way forward is.
   */
  auto?: boolean;
  trigger?: string;
  description?: string;
  /** Every named guard that must hold, in the order they are explained to the user. */
  guards: GuardCall[];
  /**
   * The extension's checks beyond what loom's engine makes for this move (the schema's prose
   * preconditions and outputs): evaluated and shown, never refusing the move.
   */
  advice?: GuardCall[];
  /** Preconditions in words beyond loom's checks, shown to check by hand rather than asked to confirm. */
  manualAdvice?: string[];
}

export interface PipelineDefinition {
  type: string;
  /** Where the stage list came from. */
  source: 'schema' | 'workflow';
  /**
   * Why the pipeline cannot be known (workflow.yaml does not read): the spec is shown as
   * unreadable and no change is made, rather than following a pipeline loom does not follow.
   */
  problems?: Diagnostic[];
  stages: StageDefinition[];
  transitions: TransitionDefinition[];
  initial: string;
  recoveryTargets: string[];
}

export function stageOf(def: PipelineDefinition, id: string): StageDefinition | undefined {
  return def.stages.find((s) => s.id === id);
}

export function transitionsFrom(def: PipelineDefinition, from: string): TransitionDefinition[] {
  return def.transitions.filter((t) => t.from === from);
}

/** Outputs that are files of the spec directory and gate leaving the stage. */
function requiredOutputs(outputs: readonly StageOutput[]): string[] {
  return (
    outputs
      .filter((o) => o.path.startsWith('specs/<date+feature>/'))
      .filter((o) => o.action !== 'created_optional' && !(o.note ?? '').includes('不作为 advance 前置'))
      .map((o) => specRelative(o.path))
      // progress.md is regenerated by whoever writes the state, so it never blocks.
      .filter((p) => p !== 'progress.md')
  );
}

const dedupe = (guards: GuardCall[]) => {
  const seen = new Set<string>();
  return guards.filter((g) => (seen.has(guardKey(g)) ? false : (seen.add(guardKey(g)), true)));
};

/** Orders the schema's states along their forward transitions, starting at the first state. */
function schemaOrder(schema: PipelineSchemaFile): string[] {
  const ids = Object.keys(schema.states).filter((id) => id !== FAILED_STAGE);
  const order: string[] = [];
  let current: string | undefined = ids[0];
  while (current && !order.includes(current)) {
    order.push(current);
    current = schema.states[current]?.allowedTransitions.find((t) => t !== FAILED_STAGE && !order.includes(t));
  }
  for (const id of ids) if (!order.includes(id)) order.push(id);
  return order;
}

/**
 * Puts first, on every transition that moves the spec on, the check that the files it reads can
 * be read: the stage's outputs and inputs, the target's inputs and every file a guard names.
 */
function readable(from: StageDefinition | undefined, to: StageDefinition, guards: GuardCall[]): GuardCall[] {
  const paths = new Set([...(from?.outputs ?? []), ...(from?.requires ?? []), ...to.requires, ...guards.flatMap(guardInputs)]);
  // The stage that runs tasks reads every task file and task state.
  if (from?.role === 'tasks' || to.role === 'tasks') for (const p of ['tasks/', 'task-states/']) paths.add(p);
  return paths.size ? [guard('inputsReadable', { paths: [...paths].sort() }), ...guards] : guards;
}

const schemaStateOf = (schema: PipelineSchemaFile, id: string): PipelineStateDefinition | undefined => (Object.hasOwn(schema.states, id) ? schema.states[id] : undefined);

/** The steps in order and the step each goes forward to: workflow.yaml's list, else the schema's own order. */
interface StepOrder {
  order: string[];
  stepById: Map<string, WorkflowStep>;
  forward: Map<string, string | undefined>;
}

function stepOrder(schema: PipelineSchemaFile, steps: readonly WorkflowStep[] | undefined): StepOrder {
  let order: string[];
  const stepById = new Map<string, WorkflowStep>();
  const forward = new Map<string, string | undefined>();
  if (steps && steps.length > 0) {
    // loom's nextStep is the step after in the list; `next` is not read (workflow.ts says so when it disagrees).
    order = [];
    for (const step of steps) {
      if (stepById.has(step.id)) continue;
      stepById.set(step.id, step);
      order.push(step.id);
    }
    order.forEach((id, i) => forward.set(id, order[i + 1]));
  } else {
    order = schemaOrder(schema);
    order.forEach((id, i) => {
      const allowed = schemaStateOf(schema, id)?.allowedTransitions ?? [];
      forward.set(
        id,
        allowed.find((t) => t !== FAILED_STAGE && order.indexOf(t) > i),
      );
    });
  }
  return { order, stepById, forward };
}

/**
 * One stage: its checks to enter and to leave, blocking or advice, from the schema's state and the
 * workflow's step. The schema's prose preconditions may name checks on leaving another stage: they
 * are added to `exitFromText`, for stagesOf to place.
 */
function stageFrom(schema: PipelineSchemaFile, defaults: WorkflowDefaults, { stepById, forward }: StepOrder, id: string, exitFromText: Map<string, GuardCall[]>): StageDefinition {
  const s = schemaStateOf(schema, id);
  const step = stepById.get(id);
  const enter: GuardCall[] = [];
  const schemaEnter: GuardCall[] = [];
  const manual: string[] = [];
  for (const p of s?.preconditions ?? []) {
    const compiled = compilePrecondition(p);
    schemaEnter.push(...compiled.enter);
    manual.push(...compiled.manual);
    for (const [stage, guards] of compiled.exit) exitFromText.set(stage, [...(exitFromText.get(stage) ?? []), ...guards]);
  }
  const requires = (step?.requires ?? []).map(specRelative);
  for (const path of requires) enter.push(guard('fileExists', { path }));

  // loom's checkStageOutputs: the step's outputs exist and hold no placeholder. The schema's
  // outputs are the extension's, checked for existence only.
  const stepOutputs = (step?.outputs ?? []).map(specRelative).filter((p) => p !== 'progress.md');
  const schemaOutputs = requiredOutputs(s?.outputs ?? []).filter((p) => !stepOutputs.includes(p));
  const exit: GuardCall[] = stepOutputs.map((path) => guard('fileExists', { path, noPlaceholders: true }));
  const schemaExit: GuardCall[] = schemaOutputs.map((path) => guard('fileExists', { path }));
  if (step?.gate_verdict) {
    const path = specRelative(step.gate_verdict);
    exit.push(guard('fileExists', { path }));
    exit.push(guard('reportPasses', { path }));
    if (step.evidence_required === true) exit.push(guard('evidenceReceiptValid', { path, required: true }));
  }
  const validators = [...new Set([...(step?.validators ?? []), ...(IMPLICIT_VALIDATORS.get(id) ?? [])])];
  for (const name of validators) exit.push(guard('validatorPasses', { name, stage: id }));

  const humanApproval = step?.gate === 'human-approval';
  const approvalRequires = (step?.approval_requires ?? []).map(specRelative);
  if (humanApproval) {
    for (const path of approvalRequires) exit.push(guard('fileExists', { path, noPlaceholders: true }));
    if (approvalRequires.includes(REVIEW_FEEDBACK_FILE)) exit.push(guard('reviewFeedbackPasses', {}));
  }
  const skill = step?.skill ?? s?.skill;
  // The checks loom's engine makes for the step as workflow.yaml declares it block; the schema's
  // prose preconditions and outputs are the extension's own, shown as advice, unless the step (or
  // the defaults) says `strict_checks: true`. Without a workflow step there is no loom rule to agree
  // with, and the schema's checks are the pipeline's only ones: they block.
  const blocking = !step || step.strict_checks === true || (defaults as { strict_checks?: unknown }).strict_checks === true;
  return {
    id,
    description: s?.description,
    skill,
    confirmation: humanApproval || (s?.interactive ?? false),
    humanApproval,
    strict: blocking,
    enter: dedupe(blocking ? [...schemaEnter, ...enter] : enter),
    enterAdvice: blocking ? [] : dedupe(schemaEnter.filter((g) => !enter.some((e) => guardKey(e) === guardKey(g)))),
    exit: blocking ? [...exit, ...schemaExit] : exit,
    exitAdvice: blocking ? [] : schemaExit,
    outputs: [...stepOutputs, ...schemaOutputs],
    requires,
    manualChecks: blocking ? manual : [],
    manualAdvice: blocking ? [] : manual,
    validators,
    approvalRequires,
    approvalArtifacts: [...requires, ...approvalRequires, ...stepOutputs],
    maxRetries: step?.config?.max_retries ?? defaults.max_retries ?? DEFAULT_MAX_RETRIES,
    timeoutMinutes: step?.config?.timeout_minutes ?? defaults.timeout_minutes ?? DEFAULT_TIMEOUT_MINUTES,
    terminal: forward.get(id) === undefined,
    // loom compares the output as written, so `specs/<date+feature>/handoffs/x.json` does not count.
    compressionRequired: (step?.outputs ?? []).includes(`handoffs/${id}.json`),
  };
}

/** The stages, with what other stages' prose asks of leaving them, and the role each plays. */
function stagesOf(schema: PipelineSchemaFile, defaults: WorkflowDefaults, steps: StepOrder): StageDefinition[] {
  const exitFromText = new Map<string, GuardCall[]>();
  const stages = steps.order.map((id) => stageFrom(schema, defaults, steps, id, exitFromText));
  for (const stage of stages) {
    const fromText = exitFromText.get(stage.id) ?? [];
    if (stage.strict) stage.exit = dedupe([...stage.exit, ...fromText]);
    else stage.exitAdvice = dedupe([...stage.exitAdvice, ...fromText]).filter((g) => !stage.exit.some((e) => guardKey(e) === guardKey(g)));
    const next = steps.forward.get(stage.id);
    const nextRequires = next ? (steps.stepById.get(next)?.requires ?? []).map(specRelative) : [];
    stage.approvalArtifacts = [...new Set([...stage.approvalArtifacts, ...nextRequires])];
    // Once its checks are all known: a review gate is recognised by what leaving it waits for.
    const role = roleOf(stage);
    if (role) stage.role = role;
  }

  return stages;
}

/**
 * Builds the pipeline for one spec from loom's pipeline.schema.json and the repository's
 * workflow.yaml: the steps of `pipelineType` when the workflow declares them, else (no
 * workflow.yaml; the repository refuses a workflow without the type) the full pipeline of the
 * schema. Everything the machine, the tree and Advance know comes from here.
 */
export function buildPipelineDefinition(schema: PipelineSchemaFile, workflow: Workflow | undefined, pipelineType: string): PipelineDefinition {
  const steps = workflow?.pipelines?.[pipelineType]?.steps;
  const order = stepOrder(schema, steps);
  const stages = stagesOf(schema, workflow?.defaults ?? {}, order);
  const { transitions, recoveryTargets } = transitionsOf(schema, stages, order.forward);
  return { type: pipelineType, source: steps?.length ? 'workflow' : 'schema', stages, transitions, initial: stages[0]?.id ?? 'brainstorming', recoveryTargets };
}

/** What every way between two stages is built from: the schema's words on it, and the checks the moves share. */
interface TransitionParts {
  described: (from: string, to: string) => PipelineSchemaFile['transitions'][number] | undefined;
}

/** Passing a gate is loom's --approve, which records fresh fingerprints instead of checking old ones. */
const approvalsFresh = (stage: StageDefinition) => (stage.humanApproval ? [] : [guard('approvalsFresh', {})]);
const confirm = (stage: StageDefinition) => (stage.confirmation || stage.manualChecks.length > 0 ? [guard('confirmed', { stage: stage.id })] : []);
/**
 * loom's advance asks for it after the stage's own checks, going forward and on the automatic
 * return from converge; its approve (passing a human-approval gate) and the completion of the
 * last stage do not.
 */
const compressed = (stage: StageDefinition) => (stage.compressionRequired ? [guard('compressionConfirmed', { stage: stage.id })] : []);
/** The team's rule on open review threads (teamRules.ts) gates leaving a stage a person confirms. */
const answered = (stage: StageDefinition) => (stage.confirmation ? [guard('threadsAnswered', { stage: stage.id, files: [...new Set([...stage.outputs, ...stage.approvalRequires])] })] : []);

/** The way forward from `stage` to `target`: leaving the one, entering the other, the person's word where it is needed. */
function forwardTransition({ described }: TransitionParts, stage: StageDefinition, target: StageDefinition): TransitionDefinition {
  // loom's approve checks no `requires` of the next step (only advance does): past a gate they are advice.
  const targetEnter = stage.humanApproval && !stage.strict ? [] : target.enter;
  const guards = readable(
    stage,
    target,
    dedupe([
      ...stage.exit,
      ...(stage.humanApproval ? [] : compressed(stage)),
      ...answered(stage),
      ...targetEnter,
      guard('handoffsFresh', {}),
      ...approvalsFresh(stage),
      ...confirm(stage),
      ...(target.manualChecks.length ? confirm(target) : []),
    ]),
  );
  const blockingKeys = new Set(guards.map(guardKey));
  return {
    from: stage.id,
    to: target.id,
    kind: 'forward',
    trigger: described(stage.id, target.id)?.trigger,
    description: described(stage.id, target.id)?.description,
    guards,
    advice: dedupe([...stage.exitAdvice, ...(targetEnter === target.enter ? [] : target.enter), ...target.enterAdvice]).filter((g) => !blockingKeys.has(guardKey(g))),
    manualAdvice: [...stage.manualAdvice, ...target.manualAdvice],
  };
}

/**
 * Going back (converge → executing, verification → executing) as the schema allows. Loom 3's
 * advance checks approvals and handoffs before anything else, whichever way the spec then
 * goes, so going back checks them too. From a stage whose convergence-pass fails, the way
 * back is loom's own retry: the stage's other exit checks hold, rounds are left, and plain
 * Advance takes it (kind `retry` with `auto`), as `loom run --advance` does at converge.
 */
function backTransition({ described }: TransitionParts, stage: StageDefinition, to: StageDefinition): TransitionDefinition {
  const converges = stage.validators.includes(CONVERGENCE_PASS);
  const rounds = converges || stage.role === 'convergence' ? [guard('convergenceRoundsLeft', { max: MAX_CONVERGENCE_ROUNDS })] : [];
  const retry = converges
    ? [...stage.exit.filter((g) => !(g.type === 'validatorPasses' && g.params.name === CONVERGENCE_PASS)), guard('validatorFails', { name: CONVERGENCE_PASS, stage: stage.id })]
    : to.enter;
  return {
    from: stage.id,
    to: to.id,
    kind: 'retry',
    ...(converges ? { auto: true } : {}),
    trigger: described(stage.id, to.id)?.trigger,
    description: described(stage.id, to.id)?.description,
    guards: readable(
      stage,
      to,
      dedupe([...rounds, ...retry, ...(converges ? compressed(stage) : []), guard('handoffsFresh', {}), guard('approvalsFresh', {}), guard('confirmed', { stage: stage.id })]),
    ),
  };
}

/** The ways between the stages: forward, back as the schema allows, to `failed`, and out of it. */
function transitionsOf(schema: PipelineSchemaFile, stages: StageDefinition[], forward: ReadonlyMap<string, string | undefined>): { transitions: TransitionDefinition[]; recoveryTargets: string[] } {
  const byId = new Map(stages.map((s) => [s.id, s]));
  const parts: TransitionParts = { described: (from, to) => schema.transitions.find((t) => t.from === from && t.to === to) };
  const transitions: TransitionDefinition[] = [];
  stages.forEach((stage, index) => {
    const next = forward.get(stage.id);
    const target = next ? byId.get(next) : undefined;
    if (target) transitions.push(forwardTransition(parts, stage, target));
    for (const back of schemaStateOf(schema, stage.id)?.allowedTransitions ?? []) {
      const to = byId.get(back);
      if (to && stages.indexOf(to) < index) transitions.push(backTransition(parts, stage, to));
    }
    if (!stage.terminal) transitions.push({ from: stage.id, to: FAILED_STAGE, kind: 'fail', trigger: parts.described(stage.id, FAILED_STAGE)?.trigger, guards: [] });
  });

  // Out of `failed`: to the stages the schema names, else to the first.
  const recoveryTargets = (schemaStateOf(schema, FAILED_STAGE)?.allowedTransitions ?? []).filter((id) => byId.has(id));
  if (recoveryTargets.length === 0 && stages[0]) recoveryTargets.push(stages[0].id);
  for (const id of recoveryTargets) {
    transitions.push({
      from: FAILED_STAGE,
      to: id,
      kind: 'recover',
      trigger: parts.described(FAILED_STAGE, id)?.trigger,
      description: parts.described(FAILED_STAGE, id)?.description,
      guards: readable(undefined, byId.get(id)!, byId.get(id)!.enter),
    });
  }
  return { transitions, recoveryTargets };
}

/** The pipeline of a spec whose workflow.yaml cannot be read: no stages, so no change can be made, and the reason. */
export function unreadablePipeline(pipelineType: string, problems: Diagnostic[]): PipelineDefinition {
  return { type: pipelineType, source: 'workflow', problems, stages: [], transitions: [], initial: 'brainstorming', recoveryTargets: [] };
}
