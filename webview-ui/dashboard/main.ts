/**
 * The dashboard of one spec: pipeline stepper, next step with its preconditions and actions,
 * circuit-breaker reports, tasks, handoffs, findings and token usage. Each model from the host
 * re-renders the page; scroll position, the selected task and the focused control survive it.
 */
import '../common/pageLanguage';
import '../common/base.css';
import './dashboard.css';
import type { DashboardModel } from '../../src/shared/dashboardModel';
import { PROTOCOL_VERSION } from '../../src/shared/protocol';
import { h, replaceChildren } from '../common/dom';
import { announceRendered } from '../common/rendered';
import { onHostMessage, post, saveUi, savedUi } from '../common/vscodeApi';
import { renderFindings } from './findings';
import { renderHandoffs } from './handoffs';
import { renderHeader } from './header';
import { renderNextStep } from './nextStep';
import { renderPipelineRun } from './pipelineRun';
import { keepOnePrimary } from './primaryAction';
import { renderReviewThreads } from './reviewThreads';
import { renderDrift } from './drift';
import { renderStepper } from './stepper';
import { renderBreakers, renderTasks } from './tasks';
import { renderTokens } from './tokens';

interface DashboardUi {
  scrollY: number;
  selectedTask?: string;
}

const app = document.getElementById('app')!;
let model: DashboardModel | undefined;
let selectedTask: string | undefined;
let saveTimer = 0;

function save(): void {
  if (model) saveUi<DashboardUi>('dashboard', model.specDir, { scrollY: window.scrollY, ...(selectedTask ? { selectedTask } : {}) });
}

function scheduleSave(): void {
  clearTimeout(saveTimer);
  saveTimer = window.setTimeout(save, 100);
}

/** Selecting a row (click or arrow key) moves the focus to it, so the arrows keep working from there. */
function selectTask(id: string): void {
  selectedTask = id;
  render();
  app.querySelector<HTMLElement>(`[data-key="task-${CSS.escape(id)}"]`)?.focus({ preventScroll: true });
  save();
}

function render(): void {
  if (!model) return;
  const m = model;
  // Focus is kept by key (`data-key`), since every element is new after a render.
  const focusedKey = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-key]')?.dataset.key;
  const scrollY = window.scrollY;
  replaceChildren(
    app,
    renderHeader(m),
    ...renderBreakers(m),
    ...renderPipelineRun(m),
    h('div', { className: 'columns' }, renderNextStep(m), renderStepper(m)),
    renderTasks(m, selectedTask, selectTask),
    renderHandoffs(m),
    renderReviewThreads(m),
    renderDrift(m),
    renderFindings(m),
    renderTokens(m),
  );
  keepOnePrimary(app, m);
  window.scrollTo(0, scrollY);
  if (focusedKey) app.querySelector<HTMLElement>(`[data-key="${CSS.escape(focusedKey)}"]`)?.focus({ preventScroll: true });
}

onHostMessage('dashboard', (message) => {
  if (message.type === 'unavailable') {
    model = undefined;
    replaceChildren(app, h('p', { className: 'notice error' }, message.message));
    announceRendered('dashboard', {});
    return;
  }
  model = message.model;
  const restore = message.type === 'init' ? savedUi<DashboardUi>('dashboard').ui : undefined;
  if (restore && typeof restore.selectedTask === 'string') selectedTask = restore.selectedTask;
  render();
  if (restore && Number(restore.scrollY) > 0) window.scrollTo(0, Number(restore.scrollY));
  app.setAttribute('aria-busy', 'false');
  save();
  announceRendered('dashboard', { tasks: model.tasks.length });
});

window.addEventListener('scroll', scheduleSave, { passive: true });
post({ type: 'ready', view: 'dashboard', protocol: PROTOCOL_VERSION });
