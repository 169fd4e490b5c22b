import { parentPort, workerData } from 'node:worker_threads';
import { scanForText, type TextSearchRequest } from './textSearchScan';

// The search worker's entry point, bundled as dist/textSearchWorker.js (scripts/build.mjs).
const port = parentPort;
if (port) {
  try {
    scanForText(workerData as TextSearchRequest, (m) => port.postMessage(m));
  } catch (e) {
    port.postMessage({ kind: 'refused', message: `the search failed: ${(e as Error).message}` });
  }
}
