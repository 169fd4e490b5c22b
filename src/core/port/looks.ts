// The extension's look at every spec, in a worker process, which fills the spec cache.
export type { LookFailure } from '../repository/specLook';
export { lookAtSpec } from '../repository/specLook';
export type { SpecLookRequest } from '../repository/specLookProtocol';
export type { SpecLookRun } from '../repository/specLooks';
export { lookInWorker } from '../repository/specLooks';
