'use strict';
// The baseline of `bench: activation`: loaded and activated the way Loom is, doing nothing.
const bundleStartedAt = performance.now();

exports.activate = () => {
  const activateStartedAt = performance.now();
  return { timings: { bundleStartedAt, bundleLoadedAt, activateStartedAt, activatedAt: performance.now() } };
};
exports.deactivate = () => {};
const bundleLoadedAt = performance.now();
