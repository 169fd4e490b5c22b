import type { ToolGroup } from './session';

/** What each group is for, as loom's CAPABILITY_GROUPS tells the agent before it loads one. */
export const GROUP_GUIDE: ReadonlyMap<ToolGroup, { title: string; when: string }> = new Map([
  ['meta', { title: 'Catalog and telemetry', when: 'Start here: list the groups, load the one the task needs, read the call counts.' }],
  ['session', { title: 'Session binding', when: 'When you start on one spec: attach it, and later calls may leave spec_dir out.' }],
  ['context', { title: 'Context documents, section by section', when: 'When you need part of the constitution or the project memory: read the outline first, then one section.' }],
  [
    'pipeline',
    {
      title: 'The pipeline: stages, gates, tasks, handoffs, validators',
      when: 'To learn what the current stage needs, check its work, write handoffs and task states, and move on. Read loom_get_pipeline_context first. An interactive stage or an approval gate moves only with the user’s confirmation.',
    },
  ],
  ['memory', { title: 'Structured project memory', when: 'To read past decisions, pitfalls and preferences, or record a new one.' }],
]);
