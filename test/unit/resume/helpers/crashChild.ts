import { runTasksOnce } from './crashRun';

// A window's extension host, reduced to one Run Tasks: it dies where LOOM_CRASH_AT says (crashRun.ts).
runTasksOnce(process.argv[2], process.env.LOOM_CRASH_AT).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (e: unknown) => {
    process.stderr.write(`${(e as Error)?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  },
);
