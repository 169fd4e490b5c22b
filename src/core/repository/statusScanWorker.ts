import { parentPort, workerData } from 'node:worker_threads';
import { setDisplayLanguage } from '../messages';
import { evaluationEntry, recordEvaluation } from '../specdir/evaluationCache';
import { ClaimQueue } from '../threads/claimQueue';
import { LoomRepository } from './loomRepository';
import { specStatus } from './specStatusCache';
import type { StatusScanMessage, StatusScanRequest } from './statusScanProtocol';

// A helper thread of `loom-vscode status` (specStatusCache.ts), bundled as dist/statusScanWorker.js
// (scripts/build.mjs): claims the specs of the request one after another, as the main thread and
// the other helpers do, and answers each with its status and the cache's entry for it (made here,
// beside the evaluation, not on the main thread).

const request = workerData as StatusScanRequest;
setDisplayLanguage(request.language);
const repository = new LoomRepository(request.root, { specRoots: request.specRoots });
const claims = new ClaimQueue(request.claims);
const extraInputs = new Map(request.extraInputs);
for (let i = claims.next(request.owner); i !== undefined; i = claims.next(request.owner)) {
  let message: StatusScanMessage;
  try {
    const dir = request.dirs[i];
    if (request.cacheVersion === undefined) message = { i, status: specStatus(repository, dir, () => undefined) };
    else {
      const evaluation = recordEvaluation((dependsOnMore) => specStatus(repository, dir, dependsOnMore), extraInputs);
      message = { i, status: evaluation.value, entry: evaluationEntry(request.cacheVersion, dir, request.language, evaluation) };
    }
  } catch (e) {
    message = { i, failed: e instanceof Error ? e.message : String(e) };
  }
  parentPort!.postMessage(message);
}
