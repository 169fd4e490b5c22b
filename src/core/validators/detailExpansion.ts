import { findPlaceholder } from '../files/placeholders';
import { REQUIREMENTS_FILE, type Behavior } from '../files/requirements';
import { categoriesImpliedBy } from '../files/vocabulary';
import type { SpecSnapshot } from '../specdir/specSnapshot';
import { FindingList, SpecLines, unreadableFile } from './findingSupport';
import { findingsResult, type ValidatorOptions, type ValidatorResult } from './validatorResult';
import { t } from '../messages';

export const DETAIL_EXPANSION_PASS = 'detail-expansion-pass';

/** The stub descriptions loom's detail expansion starts from (check-detail-expansion.mjs). */
const STUB_DESCRIPTION = /^(verifiable behavior for|default behavior)/i;

/** Loom's isNonEmptyTestPlan: at least one field holds something. */
function hasTestPlan(plan: Behavior['test_plan']): boolean {
  if (!plan || typeof plan !== 'object') return false;
  return Object.values(plan).some((v) => {
    if (Array.isArray(v)) return v.length > 0;
    if (v && typeof v === 'object') return Object.keys(v).length > 0;
    return v !== undefined && v !== null && String(v).trim() !== '';
  });
}

/**
 * loom's validateRequirementsFile with requireTestPlan: a strategy, and at least one input and
 * one expected outcome (coverage_target is optional).
 */
function structuredTestPlan(plan: Behavior['test_plan']): boolean {
  if (!plan || typeof plan !== 'object') return false;
  const p = plan as Record<string, unknown>;
  return typeof p.strategy === 'string' && p.strategy !== '' && Array.isArray(p.inputs) && p.inputs.length > 0 && Array.isArray(p.expected) && p.expected.length > 0;
}

/**
 * Leaving detail-expansion, as loom's check-detail-expansion.mjs decides it: every requirement's
 * required categories (declared, then implied by `types`) have a behavior of that category (one
 * marked `applicability: not-applicable` settles it too); every behavior has a non-empty
 * `test_plan` with a strategy, inputs and expected outcomes (loom's requireTestPlan), no longer `requires-clarification` (as applicability or status), and a description
 * that is not a stub or a placeholder.
 */
export function detailExpansionPass(s: SpecSnapshot, options: ValidatorOptions = {}): ValidatorResult {
  const list = new FindingList('DE');
  const lines = new SpecLines(s, options.locate !== false);
  if (!s.requirements) {
    list.add(unreadableFile(s, REQUIREMENTS_FILE, s.requirementsCondition)!);
    return findingsResult(DETAIL_EXPANSION_PASS, list.findings);
  }
  for (const req of s.requirements.requirements) {
    const required = [...new Set([...(req.required_categories ?? []), ...categoriesImpliedBy(req.types ?? [])])];
    const present = new Set(req.behaviors.map((b) => b.category));
    for (const category of required.filter((c) => !present.has(c))) {
      list.add({
        kind: 'missing',
        severity: 'error',
        requirement_id: req.id,
        artifact: REQUIREMENTS_FILE,
        message: t('validator.detail.noCategory', { id: req.id, category }),
        location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(req.id)),
        suggested_fix: { action: 'update_requirement', details: t('validator.detail.addCategory', { category, id: req.id }) },
      });
    }
    for (const b of req.behaviors) {
      const where = lines.at(REQUIREMENTS_FILE, lines.requirementLine(req.id, b.id));
      const common = { requirement_id: req.id, behavior_id: b.id, artifact: REQUIREMENTS_FILE, location: where } as const;
      if (!hasTestPlan(b.test_plan)) {
        list.add({
          ...common,
          kind: 'missing',
          severity: 'error',
          message: t('validator.detail.noTestPlan', { id: b.id }),
          suggested_fix: { action: 'update_requirement', details: t('validator.detail.giveTestPlan', { id: b.id }) },
        });
      } else if (!structuredTestPlan(b.test_plan)) {
        list.add({
          ...common,
          kind: 'partial',
          severity: 'error',
          message: t('validator.detail.incompleteTestPlan', { id: b.id }),
          suggested_fix: { action: 'update_requirement', details: t('validator.detail.completeTestPlan', { id: b.id }) },
        });
      }
      if (b.applicability === 'requires-clarification' || (b.status as string) === 'requires-clarification') {
        list.add({
          ...common,
          kind: 'partial',
          severity: 'error',
          message: t('validator.detail.clarification', { id: b.id }),
          suggested_fix: { action: 'update_requirement', details: t('validator.detail.settle', { id: b.id }) },
        });
      }
      const placeholder = STUB_DESCRIPTION.exec(b.description)?.[0] ?? findPlaceholder(b.description)?.placeholder;
      if (placeholder !== undefined) {
        list.add({
          ...common,
          kind: 'placeholder',
          severity: 'error',
          message: t('validator.detail.placeholder', { id: b.id, placeholder }),
          suggested_fix: { action: 'update_requirement', details: t('validator.detail.describe', { id: b.id }) },
        });
      }
    }
  }
  return findingsResult(DETAIL_EXPANSION_PASS, list.findings);
}
