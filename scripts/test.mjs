// `npm test`, the one command that runs every check (the README's, and .ci/run's): build,
// typecheck, lint, unit, webview, integration and UI tests, failing at the first that fails.
//
// Installing a real VS Code and chromium (test/vscode/setup.sh) takes minutes on a fresh machine,
// most of it waiting on apt and the npm registry. Only the webview, integration and UI tests need
// it, so it runs beside the build, the typecheck, the lint and the unit tests instead of before
// them; the typecheck and the lint run side by side too. The build is done once, here: the
// integration and UI runners are told to skip theirs. Each step's time is printed at the end, so a
// CI log says where its minutes went.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const started = Date.now();
const took = [];
const seconds = (since) => Math.round((Date.now() - since) / 1000);

/**
 * Runs one step to its end. A step that runs beside another (`prefixed`) has each of its lines
 * printed under its name, so that two reports stay readable; the others print as they are.
 */
function step(name, command, args, { prefixed = false, env = {} } = {}) {
  return new Promise((resolve) => {
    const since = Date.now();
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', prefixed ? 'pipe' : 'inherit', prefixed ? 'pipe' : 'inherit'] });
    if (prefixed) {
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`[${name}] ${line}\n`));
      }
    }
    const end = (code, why) => {
      const result = { name, code, seconds: seconds(since), why };
      took.push(result);
      console.log(`test: ${name} ${code === 0 ? 'passed' : `FAILED (${why ?? `exit ${code}`})`} in ${result.seconds} s`);
      resolve(result);
    };
    child.on('error', (e) => end(1, `could not start ${command}: ${e.message}`));
    child.on('close', (code, signal) => end(code ?? 1, signal ? `killed by ${signal}` : undefined));
  });
}

const npm = (script) => ['npm', ['run', script, '--silent']];
const failed = (...results) => results.find((r) => r.code !== 0);

function finish(failure) {
  console.log(`\ntest: ${took.map((r) => `${r.name} ${r.seconds} s`).join(', ')}; ${seconds(started)} s in all`);
  if (failure) {
    console.error(`test: FAILED at ${failure.name}`);
    process.exit(1);
  }
}

const setup = step('setup', 'bash', ['test/vscode/setup.sh'], { prefixed: true });
/** Stops at a failed step, after the install has ended: apt or npm cut off half way would leave the next run a broken install. */
const stopIfFailed = async (...results) => {
  const failure = failed(...results);
  if (!failure) return;
  await setup;
  finish(failure);
};

await stopIfFailed(await step('build', ...npm('build')));
await stopIfFailed(...(await Promise.all([step('typecheck', ...npm('typecheck'), { prefixed: true }), step('lint', ...npm('lint'), { prefixed: true })])));
// The webview tests (a chromium each) need the install, not the unit tests: they start as soon
// as it is done, one at a time beside the unit tests' three processes.
const webview = setup.then((installed) => (installed.code === 0 ? step('webview', ...npm('test:webview'), { prefixed: true, env: { LOOM_TEST_CONCURRENCY: '1' } }) : installed));
await stopIfFailed(...(await Promise.all([step('unit', ...npm('test:unit')), webview])));
const built = { env: { LOOM_TEST_SKIP_BUILD: '1' } };
for (const suite of ['test:integration', 'test:ui']) {
  await stopIfFailed(await step(suite.slice('test:'.length), ...npm(suite), built));
}
finish();
