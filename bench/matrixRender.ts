/**
 * Time to first render of the traceability matrix for 5,000 behaviors, divided by the time the
 * same page takes for 50 (target: at most 2×), and the number of rows in the DOM at 5,000 (the
 * windowed list keeps it bounded by the viewport).
 *
 * "First render" is what a user waits for: from opening the page, through `ready` and the host's
 * `init` with the model (parsed in the page from JSON text), to the first frame painted after the
 * grid is built. What grows with the ledger is mostly the model's transfer and parsing (here the
 * init script that carries it, its JSON.parse and postMessage's copy); the page renders only the
 * rows in view. Both sizes run in the same chromium, alternating, best of several runs each, so a
 * busy machine hurts both alike.
 */
import { WebviewHarness } from '../test/webview/support/harness';
import { matrixModel } from '../test/webview/support/matrixModels';
import type { MatrixModel } from '../src/shared/matrixModel';

async function firstRender(harness: WebviewHarness, model: MatrixModel): Promise<{ ms: number; domRows: number }> {
  const page = await harness.open('matrix', { reply: { type: 'init', model }, viewport: { width: 1280, height: 800 } });
  await page.page.waitForFunction('window.__loom.firstPaint !== undefined', undefined, { timeout: 60_000 });
  const result = (await page.page.evaluate(`({ ms: window.__loom.firstPaint, domRows: document.querySelectorAll('.grid-body > .row').length })`)) as { ms: number; domRows: number };
  await page.finish();
  return result;
}

export async function benchMatrixRender(runs = Number(process.env.BENCH_MATRIX_RUNS ?? 5)): Promise<string> {
  const harness = await WebviewHarness.start();
  try {
    const small = matrixModel(50);
    const large = matrixModel(5000);
    // Warm the HTTP cache and chromium's code cache, which later runs of either size reuse.
    await firstRender(harness, small);
    await firstRender(harness, large);
    let ms50 = Infinity;
    let ms5000 = Infinity;
    let domRows = 0;
    for (let i = 0; i < runs; i++) {
      ms50 = Math.min(ms50, (await firstRender(harness, small)).ms);
      const l = await firstRender(harness, large);
      ms5000 = Math.min(ms5000, l.ms);
      domRows = Math.max(domRows, l.domRows);
    }
    return `bench: matrix-render ratio=${(ms5000 / ms50).toFixed(2)} domRows=${domRows} ms5000=${ms5000.toFixed(0)} ms50=${ms50.toFixed(0)} behaviors=5000/50`;
  } finally {
    await harness.close();
  }
}

if (require.main === module) {
  benchMatrixRender().then(
    (line) => console.log(line),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
