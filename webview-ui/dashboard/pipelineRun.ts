import type { DashboardModel } from '../../src/shared/dashboardModel';
import { h } from '../common/dom';
import { fileLink } from '../common/openFile';
import { formatTime } from '../common/format';
import { tv } from '../../src/shared/messages/viewText';
import { commandButton } from './commands';

/**
 * Loom: Run Pipeline on this spec: while it runs, the stage it is at and Stop; once stopped,
 * "Needs you" with why and the one action that continues it; each stage with its time, rounds,
 * estimated tokens, what it wrote and its transcript.
 */
export function renderPipelineRun(m: DashboardModel): HTMLElement[] {
  const run = m.run;
  if (!run) {
    // No run in this window yet: where the pipeline can move on, Loom can run it.
    if (!m.actions.advance) return [];
    return [
      h(
        'section',
        { className: 'card pipeline-run idle', attrs: { id: 'pipeline-run', 'aria-labelledby': 'run-title' } },
        h(
          'div',
          { className: 'section-head' },
          h('h2', { attrs: { id: 'run-title' } }, tv('view.run.title')),
          h('div', { className: 'actions' }, commandButton(m.specDir, { command: 'runPipeline' }, tv('view.next.runPipeline'), { key: 'run-pipeline', title: tv('view.next.runPipelineTitle') })),
        ),
      ),
    ];
  }
  const heading = run.running
    ? tv('view.run.running', { mode: run.mode, stage: run.stage })
    : run.reason === 'done'
      ? tv('view.run.done', { stage: run.stage })
      : run.reason === 'stopped'
        ? tv('view.run.stoppedAt', { stage: run.stage })
        : run.since
          ? tv('view.run.needsYouSince', { stage: run.stage, time: formatTime(run.since) })
          : tv('view.run.needsYou', { stage: run.stage });
  const action = run.running
    ? commandButton(m.specDir, { command: 'stopPipeline' }, tv('view.next.stopPipeline'), { key: 'run-stop', secondary: true })
    : run.action
      ? commandButton(m.specDir, { command: 'continuePipeline' }, run.action, { key: 'run-continue' })
      : null;
  return [
    h(
      'section',
      { className: `card pipeline-run ${run.running ? 'running' : run.reason === 'done' ? 'done' : 'needs-you'}`, attrs: { id: 'pipeline-run', 'aria-labelledby': 'run-title' } },
      h('div', { className: 'section-head' }, h('h2', { attrs: { id: 'run-title' } }, tv('view.run.title'), ' · ', heading), action ? h('div', { className: 'actions' }, action) : null),
      run.message ? h('p', { attrs: { 'data-reason': run.reason ?? '' } }, run.message) : null,
      h(
        'ol',
        { className: 'run-stages' },
        ...run.stages.map((s) =>
          h(
            'li',
            { attrs: { 'data-stage': s.stage } },
            h('span', null, tv('view.run.stage', { stage: s.stage, seconds: (s.ms / 1000).toFixed(1), rounds: s.rounds, tokens: s.tokens })),
            s.wrote.length ? h('div', { className: 'muted' }, tv('view.run.wrote', { files: s.wrote.join(', ') })) : null,
            s.transcript.length ? h('details', null, h('summary', null, tv('view.run.transcript')), h('pre', null, s.transcript.join('\n'))) : null,
            s.file ? h('div', { className: 'muted' }, fileLink({ path: s.file }, tv('view.run.transcriptFile', { file: s.file.split('/').slice(-2).join('/') }))) : null,
          ),
        ),
      ),
    ),
  ];
}
