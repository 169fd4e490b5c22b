import { executingCrashLoop, STEPS } from './helpers/executingCrashLoop';

/** Issue #44's crash loop over Run Tasks (helpers/executingCrashLoop.ts), killed in a task's own steps: its requests, its writes, its tests. */
executingCrashLoop(STEPS.filter(([, at]) => !at.startsWith('git:')));
