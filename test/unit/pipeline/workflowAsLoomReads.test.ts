import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TransitionRefusedError } from '../../../src/core/errors';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { SPEC, state, TempRepo } from '../../helpers/tempRepo';
import { advance, approve } from '../../helpers/intents';

/**
 * .loom/workflow.yaml as loom's engine reads it (loom 3's src/core/pipeline-engine.js:
 * loadWorkflow, normalizePipelines, PipelineEngine.getSteps / nextStep). The fixtures are written
 * the way `loom init-project` writes them; what each test asserts is what `loom run --advance`
 * and `--approve` decided on the same files.
 */

/** A loom 2.4-style workflow: pipelines as bare lists of steps, counts in quotes, no validators. */
const LOOM_24_WORKFLOW = `# workflow.yaml — loom 流水线定义
defaults:
  pipeline_type: bugfix
  max_retries: "3"
  timeout_minutes: "30"
pipelines:
  bugfix:
    - id: planning
      skill: loom-writing-plans
      outputs: [plan.md]
    - id: approved
      gate: human-approval
    - id: executing
      skill: loom-subagent-driven-development
      requires: [plan.md]
      config:
        max_retries: "2"
    - id: verification
      skill: loom-verification-before-completion
`;

/** A loom 3 workflow (templates/workflow.yaml's shape): steps under \`steps:\`, each with a \`next\`. */
const LOOM_3_WORKFLOW = `defaults:
  pipeline_type: feature
  max_retries: 3
  timeout_minutes: 30
pipelines:
  feature:
    description: "新功能开发"
    steps:
      - id: planning
        skill: loom-writing-plans
        next: approved
        outputs: [plan.md]
      - id: approved
        gate: human-approval
        next: git-worktree
      - id: executing
        skill: loom-subagent-driven-development
        next: verification
        requires: [plan.md]
      - id: verification
        skill: loom-verification-before-completion
`;

function repoWith(workflow: string, stage: string, type: string, files: Record<string, string> = {}) {
  const r = new TempRepo();
  r.write('.loom/workflow.yaml', workflow);
  // loom writes spec_dir absolute (PipelineStateStore.init).
  r.write(`${SPEC}/pipeline.state.json`, state(stage, { pipeline_type: type, spec_dir: r.path(SPEC) }));
  for (const [path, text] of Object.entries(files)) r.write(`${SPEC}/${path}`, text);
  return { r, repo: new LoomRepository(r.root).load() };
}

describe('workflow.yaml as loom reads it', () => {
  it('drives a loom 2.4 bare list of steps with quoted counts: approved → executing, as loom --approve does', () => {
    // loom 3: normalizePipelines keeps a pipeline that is already an array; approve() moves to nextStep().
    const { r, repo } = repoWith(LOOM_24_WORKFLOW, 'approved', 'bugfix', { 'plan.md': '# plan\n' });
    const spec = repo.get(SPEC)!;
    assert.equal(spec.definition.source, 'workflow');
    assert.deepEqual(
      spec.definition.stages.map((s) => s.id),
      ['planning', 'approved', 'executing', 'verification'],
    );
    assert.deepEqual(repo.workflowProblems, []);
    assert.deepEqual(
      spec.next().map((n) => [n.kind, n.to]),
      [['forward', 'executing']],
    );
    // loom's approve() checks no requires of executing, so the schema's tasks/ and traceability.json are advice.
    const result = approve(spec, { now: '2026-11-29T10:00:00.000Z' });
    assert.deepEqual([result.from, result.to], ['approved', 'executing']);
    assert.equal(r.json(`${SPEC}/pipeline.state.json`).current_stage, 'executing');
    // max_retries: "2" is a count for the circuit breaker (loom itself does not read it).
    assert.equal(spec.definition.stages.find((s) => s.id === 'executing')!.maxRetries, 2);
    r.dispose();
  });

  it('goes through the steps in list order, not by `next`, and says where `next` disagrees', () => {
    // loom 3: PipelineEngine.nextStep is steps[idx + 1]; `next` is never read.
    const { r, repo } = repoWith(LOOM_3_WORKFLOW, 'approved', 'feature', { 'plan.md': '# plan\n' });
    const spec = repo.get(SPEC)!;
    assert.deepEqual(
      spec.definition.stages.map((s) => s.id),
      ['planning', 'approved', 'executing', 'verification'],
      'no git-worktree inserted from the schema',
    );
    assert.deepEqual(
      spec.next().map((n) => n.to),
      ['executing'],
    );
    assert.deepEqual(
      repo.workflowProblems.map((d) => `${d.severity} ${d.line} ${d.message}`),
      ['warning 15 .loom/workflow.yaml: step "approved" says next: git-worktree, but loom goes through the steps in their list order, so "approved" is followed by executing'],
    );
    r.dispose();
  });

  it('shows a spec as unreadable when workflow.yaml is broken, never driven by the schema, and writes nothing', () => {
    // loom 3: loadWorkflow throws `Pipeline "feature" has a step missing "id"`, so loom run stops.
    const broken = LOOM_3_WORKFLOW.replace('      - id: verification\n        skill:', '      - skill:');
    const { r, repo } = repoWith(broken, 'approved', 'feature', { 'plan.md': '# plan\n' });
    const before = r.read(`${SPEC}/pipeline.state.json`);
    const spec = repo.get(SPEC)!;
    const status = spec.status();
    assert.equal(status.stage, null);
    assert.equal(status.stage_source, 'unknown');
    assert.deepEqual(status.next, []);
    assert.deepEqual(
      status.diagnostics.filter((d) => d.code === 'workflow-unreadable').map((d) => `${d.file} ${d.message}`),
      [`${SPEC}/pipeline.state.json .loom/workflow.yaml cannot be read, so the stage of ${SPEC} is unknown`],
    );
    assert.deepEqual(
      repo.workflowProblems.filter((d) => d.severity === 'error').map((d) => `${d.severity} ${d.file}:${d.line} ${d.message}`),
      ['error .loom/workflow.yaml:20 .loom/workflow.yaml: pipeline "feature" has a step missing "id"'],
    );
    assert.throws(
      () => approve(spec, { now: '2026-11-29T10:00:00.000Z' }),
      (e: TransitionRefusedError) => {
        assert.match(e.message, /^\.loom\/workflow\.yaml cannot be read \(line 20: pipeline "feature" has a step missing "id"\), so the feature pipeline is unknown/);
        return true;
      },
    );
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), before);
    r.dispose();
  });

  it('reports a list written as text as an error (loom would check each letter as a file)', () => {
    // loom 3: checkPreconditions iterates `requires`; a string is iterated letter by letter.
    const { r, repo } = repoWith(LOOM_24_WORKFLOW.replace('requires: [plan.md]', 'requires: plan.md'), 'approved', 'bugfix');
    assert.deepEqual(
      repo.workflowProblems.map((d) => `${d.severity} ${d.line}:${d.column} ${d.message}`),
      ['error 15:7 .loom/workflow.yaml: "requires" of step "executing" must be a list such as [a, b] (loom would read the text letter by letter)'],
    );
    assert.equal(repo.get(SPEC)!.stage, null);
    r.dispose();
  });

  // loom 3's getSteps is `workflow.pipelines[type] || []`: without steps for the spec's type, loom
  // run --advance finds no current step and no next one and marks the spec complete at once,
  // unchecked (run on such a fixture: "Pipeline complete at stage: planning"). That is no
  // pipeline the extension can drive: the spec is unreadable, and says which type is missing.
  it('shows a spec as unreadable when workflow.yaml has no steps for its type, naming the file and the type, and writes nothing', () => {
    const { r, repo } = repoWith(LOOM_24_WORKFLOW, 'planning', 'feature', { 'plan.md': '# plan\n' });
    const before = r.read(`${SPEC}/pipeline.state.json`);
    const spec = repo.get(SPEC)!;
    const why =
      '.loom/workflow.yaml has no "feature" pipeline (it has bugfix), so the stages of a spec of that type are unknown: loom run --advance would find no steps and mark the spec complete at its current stage without any check. Add a "feature" pipeline to .loom/workflow.yaml, or set pipeline_type to one it has';
    const status = spec.status();
    assert.deepEqual([status.stage, status.stage_source, status.next], [null, 'unknown', []]);
    assert.deepEqual(
      status.diagnostics.filter((d) => d.code === 'workflow-unreadable').map((d) => `${d.severity} ${d.file} ${d.message}`),
      [`error ${SPEC}/pipeline.state.json ${why}`],
    );
    assert.deepEqual(repo.workflowProblems, [], 'workflow.yaml itself reads');
    assert.throws(
      () => advance(spec, { now: '2026-11-29T10:00:00.000Z' }),
      (e: TransitionRefusedError) => e.message === why,
    );
    assert.equal(r.read(`${SPEC}/pipeline.state.json`), before);
    // A spec of a type it has is driven as usual.
    const bugfix = repoWith(LOOM_24_WORKFLOW, 'approved', 'bugfix', { 'plan.md': '# plan\n' });
    assert.equal(bugfix.repo.get(SPEC)!.definition.source, 'workflow');
    bugfix.r.dispose();
    r.dispose();
  });

  it('says so for a pipeline with no steps too (loom normalizePipelines reads a mapping without a list as none)', () => {
    const { r, repo } = repoWith(`${LOOM_24_WORKFLOW}  feature:\n    description: "to do"\n`, 'planning', 'feature');
    assert.deepEqual(
      repo
        .get(SPEC)!
        .status()
        .diagnostics.filter((d) => d.code === 'workflow-unreadable')
        .map((d) => d.message),
      [
        '.loom/workflow.yaml: the "feature" pipeline has no steps, so the stages of a spec of that type are unknown: loom run --advance would mark the spec complete at its current stage without any check. Give the pipeline its steps in .loom/workflow.yaml',
      ],
    );
    assert.deepEqual(
      repo.workflowProblems.map((d) => `${d.severity} ${d.code}`),
      ['warning schema'],
    );
    r.dispose();
  });

  // loom 3's loadWorkflow throws "Failed to parse workflow from <path>" on an empty file (loom run
  // and run --advance exit 1 with it; status, which reads only the state, still shows the stage).
  it('shows every spec as unreadable when workflow.yaml is empty, as loom run refuses it', () => {
    for (const text of ['', '# loom workflow\n']) {
      const { r, repo } = repoWith(text, 'planning', 'feature', { 'plan.md': '# plan\n' });
      const before = r.read(`${SPEC}/pipeline.state.json`);
      const spec = repo.get(SPEC)!;
      assert.deepEqual(
        repo.workflowProblems.map((d) => `${d.severity} ${d.line} ${d.message}`),
        ['error 1 .loom/workflow.yaml: the file is empty (or only comments), and loom run refuses it ("Failed to parse workflow"); give it its pipelines (pipelines: <name>: steps: - id: …)'],
      );
      assert.deepEqual(
        spec
          .status()
          .diagnostics.filter((d) => d.code === 'workflow-unreadable')
          .map((d) => d.message),
        [`.loom/workflow.yaml cannot be read, so the stage of ${SPEC} is unknown`],
      );
      assert.throws(
        () => advance(spec, { now: '2026-11-29T10:00:00.000Z' }),
        (e: TransitionRefusedError) => /^\.loom\/workflow\.yaml cannot be read \(line 1: the file is empty \(or only comments\)/.test(e.message),
      );
      assert.equal(r.read(`${SPEC}/pipeline.state.json`), before);
      r.dispose();
    }
  });
});
