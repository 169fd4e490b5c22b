import { executingCrashLoop, STEPS } from './helpers/executingCrashLoop';

/** Issue #44's crash loop over Run Tasks (helpers/executingCrashLoop.ts), killed inside git: checkpoints, merges, a worktree's and a branch's removal. */
executingCrashLoop(STEPS.filter(([, at]) => at.startsWith('git:')));
