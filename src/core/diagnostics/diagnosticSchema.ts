import { lazySchema } from '../../shared/lazySchema';

/** The shape of a Diagnostic (diagnostic.ts) read back from a cache: anything else is rebuilt. */
export const diagnosticSchema = lazySchema((z) =>
  z.object({
    file: z.string(),
    line: z.number(),
    column: z.number(),
    severity: z.enum(['error', 'warning', 'info']),
    message: z.string(),
    code: z.string().optional(),
  }),
);
