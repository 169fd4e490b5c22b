import { categoriesImpliedBy } from '../../files/vocabulary';
import { percent } from '../findingSupport';
import type { AnalysisFacts } from './analysisFacts';

/** artifact-analysis.json's `coverage`: percentages, `100%` when there is nothing to count. */
export interface AnalysisCoverage {
  requirement_coverage: string;
  behavior_coverage: string;
  required_category_coverage: string;
  traceability_req_coverage: string;
  traceability_behavior_coverage: string;
}

/** The coverage figures of artifact-analysis.json. Every behavior counts, not-applicable ones too, as in loom's figures. */
export function analysisCoverage({ requirements, specIds, reqById, knownReqs, behaviors, mapped, traceByReq }: AnalysisFacts): AnalysisCoverage {
  const allReqs = [...knownReqs];
  const required = requirements.flatMap((r) => {
    const present = new Set(r.behaviors.map((b) => b.category));
    return [...new Set([...(r.required_categories ?? []), ...categoriesImpliedBy(r.types ?? [])])].map((c) => present.has(c));
  });
  const tracedToTask = (req: string, bid: string) => {
    const traced = traceByReq.get(req)?.behaviors;
    return Boolean(traced && Object.hasOwn(traced, bid) && traced[bid].tasks.length > 0);
  };
  return {
    requirement_coverage: percent(specIds.filter((id) => reqById.has(id)).length, specIds.length),
    behavior_coverage: percent(behaviors.filter(({ b }) => mapped.has(b.id)).length, behaviors.length),
    required_category_coverage: percent(required.filter(Boolean).length, required.length),
    traceability_req_coverage: percent(allReqs.filter((id) => traceByReq.has(id)).length, allReqs.length),
    traceability_behavior_coverage: percent(behaviors.filter(({ req, b }) => tracedToTask(req, b.id)).length, behaviors.length),
  };
}
