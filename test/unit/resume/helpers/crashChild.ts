import { armFsCrash } from './fsCrash';
import { runTasksOnce } from './crashRun';
import { answerReviewOnce, syncOnce, verifyOnce } from './laterStages';

// A window's extension host, reduced to one job over the repository in argv[2]: it dies where
// LOOM_CRASH_AT (crashRun.ts, laterStages.ts) or LOOM_CRASH_FS (fsCrash.ts) says.
armFsCrash(process.env.LOOM_CRASH_FS);
const root = process.argv[2];
const at = process.env.LOOM_CRASH_AT;
const jobs: Record<string, () => Promise<unknown>> = {
  tasks: () => runTasksOnce(root, at),
  verify: () => verifyOnce(root, at),
  answer: () => answerReviewOnce(root, at),
  sync: () => syncOnce(root),
};
jobs[process.argv[3] ?? 'tasks']().then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (e: unknown) => {
    process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
