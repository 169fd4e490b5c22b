import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic';
import { repoRelative } from '../fs/paths';
import { parseWorkflow, WORKFLOW_FILE, type Workflow, type WorkflowStep } from '../files/workflow';
import { diagnostic, hasErrors } from '../diagnostics/diagnostic';
import { t } from '../messages';
import { buildPipelineDefinition, unreadablePipeline, type PipelineDefinition } from '../pipeline/pipelineDefinition';
import { bundledPipelineSchema, type PipelineSchemaFile } from '../pipeline/pipelineSchema';
import { findSpecDirs, isDirectory, loadSpec, readSpecOnDemand, SPEC_ROOTS } from '../specdir/loadSpec';
import type { SpecCache } from '../specdir/specCache';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import type { PipelineState } from '../files/pipelineState';
import { SpecPipeline, type SpecPipelineOptions } from './specPipeline';
import { readTeamRules, type TeamRules } from '../pipeline/teamRules';

export { dynamicSteps } from './dynamicSteps';
import { dynamicSteps } from './dynamicSteps';

export interface RepositoryOptions {
  /** Folders under the repository root that hold spec directories. */
  specRoots?: readonly string[];
  schema?: PipelineSchemaFile;
  /** How each spec's actor runs (lock waiting, inspection). */
  pipeline?: SpecPipelineOptions;
  /** Parses of unchanged files kept from the last load (the extension's storage, the CLI's cache folder). */
  cache?: SpecCache;
  /** The parse of each spec's pipeline.state.json kept for its list row (`summary`), apart from `cache`. */
  summaryCache?: SpecCache;
  /**
   * The team's rules (the extension's configuration); read from the repository's
   * .vscode/settings.json when not given (the CLI, the MCP server).
   */
  rules?: TeamRules | (() => TeamRules);
}

/**
 * A loom repository: its workflow, one pipeline definition per pipeline type, and one
 * SpecPipeline per spec directory. A changed file reloads only the spec it belongs to.
 */
export class LoomRepository {
  readonly specRoots: readonly string[];
  private readonly schema: PipelineSchemaFile;
  private workflow?: Workflow;
  private workflowDiagnostics: Diagnostic[] = [];
  private workflowLoaded = false;
  /** .loom/workflow.yaml exists (read or not): without it the schema's pipeline is the one followed. */
  private workflowPresent = false;
  private readonly definitions = new Map<string, PipelineDefinition>();
  private readonly specs = new Map<string, SpecPipeline>();
  private readonly pipelineOptions: SpecPipelineOptions;
  private readonly summaryCache?: SpecCache;

  constructor(
    readonly root: string,
    options: RepositoryOptions = {},
  ) {
    this.root = resolve(root);
    const rules = options.rules ?? options.pipeline?.rules ?? readTeamRules(this.root);
    this.pipelineOptions = { ...options.pipeline, cache: options.cache ?? options.pipeline?.cache, rules };
    this.summaryCache = options.summaryCache;
    this.specRoots = options.specRoots ?? SPEC_ROOTS;
    this.schema = options.schema ?? bundledPipelineSchema();
  }

  /** Reads the workflow and every spec directory. */
  load(): this {
    this.loadWorkflow();
    for (const spec of this.specs.values()) spec.dispose();
    this.specs.clear();
    for (const dir of findSpecDirs(this.root, this.specRoots)) this.specs.set(dir, this.loadOne(dir));
    return this;
  }

  /**
   * Visits every spec once without keeping it: for one-shot readers such as the CLI, whose
   * memory then stays that of one spec whatever the size of the repository.
   */
  scan<T>(visit: (spec: SpecPipeline) => T): T[] {
    this.loadWorkflow();
    return findSpecDirs(this.root, this.specRoots).map((dir) => visit(this.loadOne(dir)));
  }

  private loadWorkflow(): void {
    this.workflowLoaded = true;
    this.definitions.clear();
    this.workflow = undefined;
    this.workflowDiagnostics = [];
    this.workflowPresent = false;
    let text: string | undefined;
    try {
      text = readFileSync(join(this.root, WORKFLOW_FILE), 'utf8');
    } catch (e) {
      // A workflow.yaml that exists but cannot be read is as unreadable as a broken one.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return;
      this.workflowPresent = true;
      this.workflowDiagnostics = [diagnostic(WORKFLOW_FILE, t('workflow.cannotRead', { file: WORKFLOW_FILE, detail: (e as Error).message }), {}, 'error', 'unreadable')];
      return;
    }
    this.workflowPresent = true;
    const parsed = parseWorkflow(WORKFLOW_FILE, text);
    this.workflow = parsed.workflow;
    this.workflowDiagnostics = parsed.diagnostics;
  }

  get diagnostics(): Diagnostic[] {
    return [...this.workflowDiagnostics, ...[...this.specs.values()].flatMap((s) => s.diagnostics)];
  }

  get workflowProblems(): readonly Diagnostic[] {
    if (!this.workflowLoaded) this.loadWorkflow();
    return this.workflowDiagnostics;
  }

  /** The default pipeline type of a spec with no state: workflow default, `qa` for qa/ specs. */
  private defaultType(dir: string): string {
    if (repoRelative(this.root, dir).split('/')[0] === 'qa') return 'qa';
    return this.workflow?.defaults?.pipeline_type ?? 'feature';
  }

  /** The pipeline type a new spec starts with: the workflow's default, else `feature`. */
  get defaultPipelineType(): string {
    if (!this.workflowLoaded) this.loadWorkflow();
    return this.workflow?.defaults?.pipeline_type ?? 'feature';
  }

  definition(pipelineType: string): PipelineDefinition {
    let def = this.definitions.get(pipelineType);
    if (!def) this.definitions.set(pipelineType, (def = this.buildDefinition(pipelineType)));
    return def;
  }

  /**
   * The pipeline loom's engine would follow: the workflow's steps of that type. A workflow.yaml
   * that does not read leaves the pipeline unknown (loom run refuses it as well), never the
   * schema's. So does a workflow.yaml without steps for the type: loom's getSteps finds none
   * (`pipelines[type] || []`) and its run --advance marks the spec complete at once, unchecked,
   * which is no pipeline the extension can drive; the spec is shown as unreadable and says why.
   * Without a workflow.yaml the schema's pipeline is followed.
   */
  private buildDefinition(pipelineType: string, steps?: WorkflowStep[]): PipelineDefinition {
    if (!this.workflowLoaded) this.loadWorkflow();
    if (this.workflowPresent && hasErrors(this.workflowDiagnostics)) {
      const first = this.workflowDiagnostics.find((d) => d.severity === 'error')!;
      const summary = diagnostic(
        WORKFLOW_FILE,
        t('workflow.unreadable', {
          file: WORKFLOW_FILE,
          pipeline: pipelineType,
          line: first.line,
          detail: first.message.startsWith(`${WORKFLOW_FILE}: `) ? first.message.slice(WORKFLOW_FILE.length + 2) : first.message,
        }),
        { line: first.line, column: first.column },
        'error',
        'workflow-unreadable',
      );
      return unreadablePipeline(pipelineType, [summary, ...this.workflowDiagnostics.filter((d) => d.severity === 'error')]);
    }
    const declared = this.workflow?.pipelines ?? {};
    if (this.workflowPresent && !steps?.length && !(Object.hasOwn(declared, pipelineType) && declared[pipelineType].steps.length > 0)) {
      const message = Object.hasOwn(declared, pipelineType)
        ? t('workflow.typeEmpty', { file: WORKFLOW_FILE, pipeline: pipelineType })
        : t('workflow.typeMissing', { file: WORKFLOW_FILE, pipeline: pipelineType, pipelines: Object.keys(declared).join(', ') });
      return unreadablePipeline(pipelineType, [diagnostic(WORKFLOW_FILE, message, { line: 1 }, 'error', 'workflow-unreadable')]);
    }
    const workflow = steps ? { ...this.workflow, pipelines: { ...this.workflow?.pipelines, [pipelineType]: { steps } } } : this.workflow;
    return buildPipelineDefinition(this.schema, workflow, pipelineType);
  }

  private loadOne(dir: string, existing?: SpecPipeline): SpecPipeline {
    if (!this.workflowLoaded) this.loadWorkflow();
    const snapshot = loadSpec(this.root, dir, this.pipelineOptions.cache);
    const def = this.definitionOf(snapshot);
    // The spec keeps its actor while its pipeline stays the same: the actor follows the new facts.
    if (existing && existing.definition === def) {
      existing.refresh(snapshot);
      return existing;
    }
    existing?.dispose();
    return new SpecPipeline(snapshot, def, this.pipelineOptions);
  }

  /**
   * A spec read only as far as a list row needs (its listing and pipeline.state.json), not kept
   * by the repository: `get` and `reload` read it in full. For the first rows of a long list.
   */
  summary(dir: string): SpecPipeline {
    if (!this.workflowLoaded) this.loadWorkflow();
    // Not through the spec's whole cache file: a row needs one small parse, kept apart (summaryCache).
    const snapshot = loadSpec(this.root, dir, this.summaryCache, { summary: true });
    return new SpecPipeline(snapshot, this.definitionOf(snapshot), this.pipelineOptions);
  }

  /**
   * A spec read in full (through the cache) but not kept by the repository: for a pass over every
   * spec (the Problems panel) that must not hold a thousand full snapshots at once. The caller
   * disposes it.
   */
  readDetached(dir: string, options: { maxFileBytes?: number } = {}): SpecPipeline {
    if (!this.workflowLoaded) this.loadWorkflow();
    const snapshot = loadSpec(this.root, dir, this.pipelineOptions.cache, options);
    return new SpecPipeline(snapshot, this.definitionOf(snapshot), this.pipelineOptions);
  }

  /**
   * A spec read on demand (readSpecOnDemand), not kept by the repository: its listing and state
   * now, each other file when something asks for it. For `status`, which reads what its answer
   * needs. The caller disposes it.
   */
  readOnDemand(dir: string): SpecPipeline {
    if (!this.workflowLoaded) this.loadWorkflow();
    const snapshot = readSpecOnDemand(this.root, dir);
    return new SpecPipeline(snapshot, this.definitionOf(snapshot), this.pipelineOptions);
  }

  private definitionOf(snapshot: SpecSnapshot): PipelineDefinition {
    return this.definitionForState(snapshot.state, snapshot.dir);
  }

  /**
   * The pipeline a spec in `dir` with this state follows, from its state file alone: what a reader
   * that needs only the stage (drift's first pass over every spec) asks before the spec is read.
   */
  definitionForState(state: PipelineState | undefined, dir: string): PipelineDefinition {
    if (!this.workflowLoaded) this.loadWorkflow();
    const type = state?.pipeline_type ?? this.defaultType(dir);
    const dynamic = dynamicSteps(state);
    // A spec whose steps were chosen for it (loom run --auto) follows them, not its type's pipeline.
    return dynamic ? this.buildDefinition(type, dynamic) : this.definition(type);
  }

  all(): SpecPipeline[] {
    return [...this.specs.values()];
  }

  /** A spec by its directory: absolute, or relative to the repository root (`specs/x`). */
  get(specDir: string): SpecPipeline | undefined {
    const abs = isAbsolute(specDir) ? resolve(specDir) : resolve(this.root, specDir);
    return this.specs.get(abs) ?? (isDirectory(abs) && this.specDirOf(join(abs, 'x')) === abs ? this.reload(abs) : undefined);
  }

  /** The spec directory a path belongs to, if any. */
  specDirOf(path: string): string | undefined {
    const rel = relative(this.root, resolve(path)).split(sep);
    if (rel.length < 2 || rel[0] === '..' || !this.specRoots.includes(rel[0])) return undefined;
    return join(this.root, rel[0], rel[1]);
  }

  /** Reloads one spec from disk, or forgets it when its directory is gone. */
  reload(dir: string): SpecPipeline | undefined {
    const existing = this.specs.get(dir);
    if (!isDirectory(dir)) {
      this.pipelineOptions.cache?.forget(dir);
      this.summaryCache?.forget(dir);
      existing?.dispose();
      this.specs.delete(dir);
      return undefined;
    }
    const spec = this.loadOne(dir, existing);
    this.specs.set(dir, spec);
    return spec;
  }
}
