import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * A synthetic loom repository: `specs` spec directories in the executing stage, each with
 * `tasks` task files and task states, a requirements ledger, traceability, handoffs and a report.
 */
export function generateRepository(root: string, specs: number, tasks: number): void {
  const write = (path: string, content: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  };
  // The sample's workflow: a full loom 3 feature pipeline (loom refuses a workflow without pipelines).
  write('.loom/workflow.yaml', readFileSync(resolve(__dirname, '..', 'sample', '.loom', 'workflow.yaml'), 'utf8'));
  for (let s = 0; s < specs; s++) {
    const dir = `specs/2026-11-${String((s % 28) + 1).padStart(2, '0')}+feature-${s}`;
    const requirements = Array.from({ length: 5 }, (_, r) => {
      const id = `REQ-${String(r + 1).padStart(3, '0')}`;
      return {
        id,
        status: 'in_progress',
        types: ['functional', 'input'],
        required_categories: ['happy-path'],
        acceptance: [`${id} works`],
        behaviors: Array.from({ length: 4 }, (_, b) => ({
          id: `${id}-B${String(b + 1).padStart(2, '0')}`,
          category: b % 2 ? 'invalid-input' : 'happy-path',
          description: `behavior ${b + 1} of ${id}`,
          status: 'in_progress',
          acceptance: ['observable result'],
          applicability: 'applicable',
          test_plan: { strategy: 'unit', inputs: ['x'], expected: ['y'], coverage_target: '100%' },
        })),
      };
    });
    write(
      `${dir}/pipeline.state.json`,
      JSON.stringify(
        {
          spec_dir: dir,
          pipeline_type: 'feature',
          current_stage: 'executing',
          loom_version: '2.3.0',
          started_at: '2026-11-01T08:00:00.000Z',
          updated_at: '2026-11-02T08:00:00.000Z',
          current_stage_started_at: '2026-11-02T08:00:00.000Z',
          stage_history: ['brainstorming', 'detail-expansion', 'planning', 'analyze-artifacts', 'approved', 'git-worktree'].map((stage) => ({
            stage,
            entered_at: '2026-11-01T08:00:00.000Z',
            exited_at: '2026-11-01T09:00:00.000Z',
            status: 'passed',
            approval: 'user_confirmed',
            approved_at: '2026-11-01T09:00:00.000Z',
          })),
          metadata: { worktree_path: '.' },
        },
        null,
        2,
      ),
    );
    write(`${dir}/spec.md`, `# Feature ${s}\n\n${requirements.map((r) => `- ${r.id}: ${r.acceptance[0]}`).join('\n')}\n`);
    write(`${dir}/plan.md`, `# Plan\n\n| Task | Title |\n|---|---|\n${Array.from({ length: tasks }, (_, t) => `| T${t + 1} | Task ${t + 1} |`).join('\n')}\n`);
    write(`${dir}/requirements.json`, JSON.stringify({ requirements }, null, 2));
    const trace: Record<string, unknown> = {};
    requirements.forEach((r, ri) => {
      const behaviors: Record<string, unknown> = {};
      r.behaviors.forEach((b, bi) => {
        const task = `T${((ri * 4 + bi) % tasks) + 1}`;
        behaviors[b.id] = { tasks: [task], tests: [`tests/feature-${s}.test.ts#${b.id}`], evidence: ['evidence/test.log'] };
      });
      trace[r.id] = { tasks: [`T${(ri % tasks) + 1}`], tests: [], evidence: [], behaviors };
    });
    write(`${dir}/traceability.json`, JSON.stringify({ requirements: trace }, null, 2));
    write(`${dir}/evidence/test.log`, 'ok\n');
    for (let t = 1; t <= tasks; t++) {
      const behavior = `REQ-${String(Math.floor(((t - 1) % 20) / 4) + 1).padStart(3, '0')}-B${String(((t - 1) % 4) + 1).padStart(2, '0')}`;
      write(
        `${dir}/tasks/T${t}.md`,
        `---\nowns: [src/feature-${s}/part-${t}.ts]\nreads: [src/shared/]\ndepends_on: [${t > 1 ? `T${t - 1}` : ''}]\nrequirements: [REQ-001]\nbehavior_ids: [${behavior}]\ncomplexity: medium\n---\n# T${t} Part ${t}\n\nImplement part ${t} of feature ${s}.\n`,
      );
      write(
        `${dir}/task-states/T${t}.state.json`,
        JSON.stringify(
          {
            task_id: `T${t}`,
            spec_dir: dir,
            status: t < tasks / 2 ? 'done' : 'pending',
            retry_count: t % 3,
            agent_session_id: null,
            created_at: '2026-11-02T08:00:00.000Z',
            updated_at: '2026-11-02T09:00:00.000Z',
            last_reviewer_result: t < tasks / 2 ? 'PASS' : null,
            blocker: null,
          },
          null,
          2,
        ),
      );
    }
    for (let h = 1; h <= 3; h++) {
      write(
        `${dir}/handoffs/T${h}.json`,
        JSON.stringify({ task_id: `T${h}`, status: 'done', summary: `T${h} done`, artifacts: [`src/feature-${s}/part-${h}.ts`], exported_interfaces: [], breaking_changes: [] }, null, 2),
      );
    }
    write(`${dir}/test-report.md`, '# Test report\n\nAll green.\n\nverdict: PASS\n');
  }
}
