import type * as ChildProcess from 'node:child_process';
import type * as Crypto from 'node:crypto';
import type * as FsPromises from 'node:fs/promises';
import type * as WorkerThreads from 'node:worker_threads';
import { lazily } from '../shared/lazily';

/*
 * Node's modules that only some commands use, loaded on their first use: loading them takes a few
 * milliseconds each in plain Node (node:crypto ~3 ms), and a top-level import would spend that on
 * every activation (see lazily). Node's own modules are not bundled; esbuild leaves these to Node.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a require inside a function is what defers the load */
export const childProcess = lazily(() => require('node:child_process') as typeof ChildProcess);
export const nodeCrypto = lazily(() => require('node:crypto') as typeof Crypto);
export const fsPromises = lazily(() => require('node:fs/promises') as typeof FsPromises);
export const workerThreads = lazily(() => require('node:worker_threads') as typeof WorkerThreads);
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * The hex digest of `data`: one call to crypto.hash where Node has it (20.12 and later), no Hash
 * object per digest; createHash elsewhere. The same digest either way. A status run makes three
 * per spec (its key, its stamps, its text): with a Hash object each, 2,000 digests took 40-60 ms
 * of CPU in a fresh process on the loaded machine of docs/performance.md, with crypto.hash 15-22.
 */
export function hexDigest(algorithm: 'sha1' | 'sha256', data: string | Uint8Array): string {
  const crypto = nodeCrypto();
  return typeof crypto.hash === 'function' ? crypto.hash(algorithm, data, 'hex') : crypto.createHash(algorithm).update(data).digest('hex');
}
