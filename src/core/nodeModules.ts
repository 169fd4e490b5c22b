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
