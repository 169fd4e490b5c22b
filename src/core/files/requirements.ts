import type { z } from 'zod';
import { lazily } from '../../shared/lazily';
import { lazySchema } from '../../shared/lazySchema';
import { t } from '../messages';
import { isPlainObject, NOT_PLAIN, plainAny, plainArray, type PlainField, plainLooseObject, plainOneOf, plainString } from './plainShapes';
import { APPLICABILITY, BEHAVIOR_CATEGORIES, BEHAVIOR_ID_PATTERN, REQUIREMENT_ID_PATTERN, REQUIREMENT_STATUSES } from './vocabulary';

export const TestPlanSchema = lazySchema((z) =>
  z.looseObject({
    strategy: z.string().optional(),
    inputs: z.array(z.unknown()).optional(),
    expected: z.array(z.unknown()).optional(),
    coverage_target: z.union([z.string(), z.number()]).optional(),
  }),
);

export const BehaviorSchema = lazySchema((z) =>
  z.looseObject({
    id: z.string().regex(BEHAVIOR_ID_PATTERN, { error: () => t('files.behaviorIdPattern') }),
    category: z.enum(BEHAVIOR_CATEGORIES),
    description: z.string().min(1, { error: () => t('files.descriptionEmpty') }),
    status: z.enum(REQUIREMENT_STATUSES),
    acceptance: z.array(z.string()).min(1, { error: () => t('files.acceptanceEmpty') }),
    // Added by detail expansion; loom's published schema omits them, loom itself writes them.
    test_plan: TestPlanSchema().optional(),
    applicability: z.enum(APPLICABILITY).optional(),
  }),
);
export type Behavior = z.infer<ReturnType<typeof BehaviorSchema>>;

const requirementBody = lazySchema((z) => ({
  status: z.enum(REQUIREMENT_STATUSES),
  types: z.array(z.string()).optional(),
  required_categories: z.array(z.enum(BEHAVIOR_CATEGORIES)).optional(),
  acceptance: z.array(z.string()),
  behaviors: z.array(BehaviorSchema()),
}));
const requirementId = lazySchema((z) => z.string().regex(REQUIREMENT_ID_PATTERN, { error: () => t('files.requirementIdPattern') }));

export const RequirementSchema = lazySchema((z) => z.looseObject({ id: requirementId(), ...requirementBody() }));
export const RequirementEntrySchema = lazySchema((z) => z.looseObject(requirementBody()));
export type Requirement = z.infer<ReturnType<typeof RequirementSchema>>;

/** Both forms loom accepts: an array of requirements with `id`, or an object keyed by id. */
export const RequirementsFileSchema = lazySchema((z) =>
  z.object({
    requirements: z.union([z.array(RequirementSchema()), z.record(requirementId(), RequirementEntrySchema())]),
  }),
);
export type RequirementsFile = z.infer<ReturnType<typeof RequirementsFileSchema>>;

const plainBehavior = lazily(() =>
  plainLooseObject([
    ['id', plainString({ pattern: BEHAVIOR_ID_PATTERN })],
    ['category', plainOneOf(BEHAVIOR_CATEGORIES)],
    ['description', plainString({ nonEmpty: true })],
    ['status', plainOneOf(REQUIREMENT_STATUSES)],
    ['acceptance', plainArray(plainString(), 1)],
    [
      'test_plan',
      plainLooseObject([
        ['strategy', plainString(), 'optional'],
        ['inputs', plainArray(plainAny), 'optional'],
        ['expected', plainArray(plainAny), 'optional'],
        ['coverage_target', (v) => (typeof v === 'string' || typeof v === 'number' ? v : NOT_PLAIN), 'optional'],
      ]),
      'optional',
    ],
    ['applicability', plainOneOf(APPLICABILITY), 'optional'],
  ]),
);
const plainBody = lazily((): PlainField[] => [
  ['status', plainOneOf(REQUIREMENT_STATUSES)],
  ['types', plainArray(plainString()), 'optional'],
  ['required_categories', plainArray(plainOneOf(BEHAVIOR_CATEGORIES)), 'optional'],
  ['acceptance', plainArray(plainString())],
  ['behaviors', plainArray(plainBehavior())],
]);
const plainRequirement = lazily(() => plainLooseObject([['id', plainString({ pattern: REQUIREMENT_ID_PATTERN })], ...plainBody()]));
const plainEntry = lazily(() => plainLooseObject(plainBody()));

/**
 * requirements.json as RequirementsFileSchema would give it, in either form, when the JSON value is
 * plainly in the shape loom writes; undefined for anything else, which zod then checks and words
 * (plainShapes.ts). Its answers are zod's, key order included (test/unit/files/requirements.test.ts).
 */
export function plainRequirementsFile(raw: unknown): RequirementsFile | undefined {
  if (!isPlainObject(raw)) return undefined;
  const list = raw.requirements;
  let requirements: unknown = NOT_PLAIN;
  if (Array.isArray(list)) requirements = plainArray(plainRequirement())(list);
  else if (isPlainObject(list)) {
    const byId: Record<string, unknown> = {};
    for (const id of Object.keys(list)) {
      const entry = REQUIREMENT_ID_PATTERN.test(id) ? plainEntry()(list[id]) : NOT_PLAIN;
      if (entry === NOT_PLAIN) return undefined;
      byId[id] = entry;
    }
    requirements = byId;
  }
  return requirements === NOT_PLAIN ? undefined : ({ requirements } as RequirementsFile);
}

export interface RequirementsLedger {
  form: 'array' | 'object';
  requirements: Requirement[];
}

export function normalizeRequirements(file: RequirementsFile): RequirementsLedger {
  if (Array.isArray(file.requirements)) return { form: 'array', requirements: file.requirements };
  return {
    form: 'object',
    // In the object form the key is the id, whatever the entry itself says.
    requirements: Object.entries(file.requirements).map(([id, entry]) => ({ ...entry, id })),
  };
}

export const REQUIREMENTS_FILE = 'requirements.json';
