// The caches of what was found in each spec, kept between runs (the extension's and the CLI's).
export { EvaluationCache } from '../specdir/evaluationCache';
export type { CacheCounts } from '../specdir/specCache';
export { SpecCache, cacheCounts, cacheKey, directoryCacheStore } from '../specdir/specCache';
