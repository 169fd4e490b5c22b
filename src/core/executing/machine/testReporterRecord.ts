import { lazySchema } from '../../../shared/lazySchema';
import type { BreakerRecord } from './circuitBreaker';
import type { FixItem } from '../dispatch/fixInstructions';
import type { ContextAnswer } from '../dispatch/promptBuilder';

/**
 * The test reporter's progress, kept in pipeline.state.json `metadata.test_reporter` so a crash
 * or a reload resumes it: its retry count and step, the fix items, the user's answers, its
 * breaker, and a passing report to reuse. Read leniently (a hand-edited field is dropped).
 */
export const TEST_REPORTER_KEY = 'test_reporter';

const RecordSchema = lazySchema((z) =>
  z.looseObject({
    retry_count: z.number().int().min(0).catch(0).default(0),
    step: z.enum(['report', 'fix']).optional().catch(undefined),
    fix_items: z
      .array(z.object({ problem: z.string(), file: z.string().optional(), location: z.string().optional(), severity: z.string().optional(), direction: z.string().optional() }))
      .optional()
      .catch(undefined),
    answers: z
      .array(z.object({ question: z.string(), answer: z.string() }))
      .optional()
      .catch(undefined),
    awaiting_context: z.string().optional().catch(undefined),
    base: z.string().optional().catch(undefined),
    breaker: z
      .looseObject({ reason: z.any(), opened_at: z.string(), last_issues: z.array(z.string()).default([]), choice: z.enum(['A', 'B', 'C']).optional(), chosen_at: z.string().optional() })
      .optional()
      .catch(undefined),
    last_verdict: z.enum(['PASS', 'FAIL']).optional().catch(undefined),
    passed: z
      .object({ finished_tasks: z.array(z.string()), evidence_file: z.string(), evidence_sha256: z.string() })
      .optional()
      .catch(undefined),
    blocker: z.string().optional().catch(undefined),
  }),
);

export interface TestReporterRecord {
  retry_count: number;
  step?: 'report' | 'fix';
  fix_items?: FixItem[];
  answers?: ContextAnswer[];
  awaiting_context?: string;
  base?: string;
  breaker?: BreakerRecord;
  last_verdict?: 'PASS' | 'FAIL';
  /** A passing report, reused when a resumed run has nothing new to report on. */
  passed?: { finished_tasks: string[]; evidence_file: string; evidence_sha256: string };
  blocker?: string;
}

/** The record as `metadata.test_reporter` holds it (`raw`); a fresh one when it has none or does not read. */
export function readTestReporterRecord(raw: unknown): TestReporterRecord {
  const parsed = RecordSchema().safeParse(raw ?? {});
  return (parsed.success ? parsed.data : { retry_count: 0 }) as TestReporterRecord;
}
