import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { LoomRepository } from '../../../src/core/repository/loomRepository';
import { buildDashboardModel } from '../../../src/core/views/dashboardModel';
import { plannedSpec, SPEC, state, TempRepo } from '../../helpers/tempRepo';

const repos: TempRepo[] = [];
after(() => repos.forEach((r) => r.dispose()));

const at = (h: number) => new Date(Date.UTC(2026, 10, 29, 8 + h)).toISOString();

// The dashboard shows who approved each stage and through what (approved_by, src/core/pipeline/personRule.ts),
// and leaves out a value not in the shape Loom writes (a hand-edited file), or one without an approval.
it('the dashboard model carries who approved a stage and through what', () => {
  const r = new TempRepo();
  repos.push(r);
  plannedSpec(r);
  r.write(
    `${SPEC}/pipeline.state.json`,
    state('approved', {
      stage_history: [
        { stage: 'brainstorming', entered_at: at(0), exited_at: at(1), status: 'passed', approval: 'user_confirmed', approved_by: { by: 'person', through: 'elicitation' } },
        { stage: 'detail-expansion', entered_at: at(1), exited_at: at(2), status: 'passed', approval: 'user_confirmed', approved_by: { by: 'agent', through: 'mcp-agent-word' } },
        { stage: 'planning', entered_at: at(2), exited_at: at(3), status: 'passed', approval: 'user_confirmed', approved_by: { by: 'someone' } },
        { stage: 'analyze-artifacts', entered_at: at(3), exited_at: at(4), status: 'passed', approved_by: { by: 'person', through: 'cli' } },
      ],
    }),
  );
  const spec = new LoomRepository(r.root).load().get(SPEC)!;
  const steps = new Map(buildDashboardModel(spec).steps.map((s) => [s.id, s.visits]));
  assert.deepEqual(steps.get('brainstorming')![0].approvedBy, { by: 'person', through: 'elicitation' });
  assert.deepEqual(steps.get('detail-expansion')![0].approvedBy, { by: 'agent', through: 'mcp-agent-word' });
  assert.equal(steps.get('planning')![0].approvedBy, undefined);
  assert.equal(steps.get('analyze-artifacts')![0].approvedBy, undefined);
});
