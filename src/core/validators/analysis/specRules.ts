// The rules on what the spec asks for: spec.md, requirements.json and the files' placeholders.
import { t as text } from '../../messages';
import { findPlaceholder } from '../../files/placeholders';
import { REQUIREMENTS_FILE } from '../../files/requirements';
import { TRACEABILITY_FILE } from '../../files/traceability';
import { categoriesImpliedBy } from '../../files/vocabulary';
import { taskFile, type AnalysisFacts } from './analysisFacts';

/** Declared types whose category must have a behavior before the plan is approved. */
const CRITICAL_TYPES = ['performance', 'security', 'observable'];

/** spec.md, requirements.json and traceability.json exist and parse. */
export function requiredFilesPresent({ s, add, language, specText }: AnalysisFacts): void {
  if (specText === undefined) add({ kind: 'missing', severity: 'blocker', artifact: 'spec.md', message: text('analysis.specMissing', {}, language), location: { file: 'spec.md' } });
  if (!s.requirements) {
    const missing = s.requirementsCondition === 'missing';
    add({
      kind: missing ? 'missing' : 'format',
      severity: missing ? 'blocker' : 'error',
      artifact: REQUIREMENTS_FILE,
      location: { file: REQUIREMENTS_FILE },
      message: missing ? text('analysis.requirementsMissing', {}, language) : text('analysis.requirementsUnreadable', {}, language),
    });
  }
  if (!s.traceability) {
    const missing = s.traceabilityCondition === 'missing';
    add({
      kind: missing ? 'missing' : 'format',
      severity: missing ? 'blocker' : 'error',
      artifact: TRACEABILITY_FILE,
      location: { file: TRACEABILITY_FILE },
      message: missing ? text('analysis.traceabilityMissing', {}, language) : text('analysis.traceabilityUnreadable', {}, language),
    });
  }
}

/** spec.md and requirements.json name the same requirements. */
export function specAndRequirementsAgree({ s, lines, add, language, specText, requirements, specIds, specSet, reqById }: AnalysisFacts): void {
  if (s.requirements && specText !== undefined) {
    for (const id of specIds.filter((x) => !reqById.has(x))) {
      add({
        kind: 'missing',
        severity: 'blocker',
        requirement_id: id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.undeclared', { id }, language),
        location: lines.at('spec.md', lines.lineOf('spec.md', id)),
        suggested_fix: { action: 'update_requirement', details: text('analysis.addRequirement', { id }, language) },
      });
    }
    for (const r of requirements.filter((x) => !specSet.has(x.id))) {
      add({
        kind: 'unrequested',
        severity: 'error',
        requirement_id: r.id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.unnamed', { id: r.id }, language),
        location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(r.id)),
        suggested_fix: { action: 'update_requirement', details: text('analysis.removeOrDescribe', { id: r.id }, language) },
      });
    }
  }
}

/** A declared critical type (performance, security, observable) has a behavior of its category. */
export function criticalTypesHaveTheirCategory({ lines, add, language, requirements }: AnalysisFacts): void {
  for (const r of requirements) {
    const present = new Set(r.behaviors.map((b) => b.category));
    for (const category of categoriesImpliedBy((r.types ?? []).filter((t) => CRITICAL_TYPES.includes(t.trim().toLowerCase())))) {
      if (present.has(category)) continue;
      add({
        kind: 'missing',
        severity: 'error',
        requirement_id: r.id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.noCategory', { id: r.id, declared: category === 'observability' ? 'observable' : category, category }, language),
        location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(r.id)),
        suggested_fix: { action: 'update_requirement', details: text('analysis.addCategory', { id: r.id, category }, language) },
      });
    }
  }
}

/** Ambiguity: no placeholder (TBD, TODO …) left in spec.md, plan.md or a task. */
export function noPlaceholders({ lines, add, language, tasks }: AnalysisFacts): void {
  for (const file of ['spec.md', 'plan.md', ...tasks.map((t) => taskFile(t.id))]) {
    const found = findPlaceholder(lines.text(file) ?? '');
    if (found) {
      add({
        kind: 'placeholder',
        severity: 'error',
        artifact: file,
        message: text('analysis.placeholder', { file, line: found.line, placeholder: found.placeholder }, language),
        location: { file, line: found.line },
        ...(file.startsWith('tasks/') ? { task_id: file.slice(6, -3) } : {}),
      });
    }
  }
}

/** Warnings: two behaviors of a requirement described alike, a behavior id declared twice. */
export function noDuplicateBehaviors({ lines, add, language, behaviors }: AnalysisFacts): void {
  const seen = new Map<string, string>();
  for (const { req, b } of behaviors) {
    const key = `${req}\u0000${b.description.trim().toLowerCase()}`;
    const twin = seen.get(key);
    if (twin) {
      add({
        kind: 'contradicts',
        severity: 'warning',
        requirement_id: req,
        behavior_id: b.id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.sameDescription', { id: b.id, twin }, language),
        location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(req, b.id)),
        suggested_fix: { action: 'update_requirement', details: text('analysis.mergeOrDistinguish', { id: b.id, twin }, language) },
      });
    } else seen.set(key, b.id);
  }
  const counts = new Map<string, number>();
  for (const { b } of behaviors) counts.set(b.id, (counts.get(b.id) ?? 0) + 1);
  for (const [id, n] of counts) {
    if (n > 1)
      add({
        kind: 'contradicts',
        severity: 'warning',
        behavior_id: id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.declaredTwice', { id, count: n }, language),
        location: { file: REQUIREMENTS_FILE },
      });
  }
}

/** Warnings: a requirement without acceptance criteria, a test plan that expects nothing. */
export function requirementsFullySpecified({ lines, add, language, requirements }: AnalysisFacts): void {
  for (const r of requirements) {
    if (r.acceptance.length === 0) {
      add({
        kind: 'partial',
        severity: 'warning',
        requirement_id: r.id,
        artifact: REQUIREMENTS_FILE,
        message: text('analysis.noAcceptance', { id: r.id }, language),
        location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(r.id)),
        suggested_fix: { action: 'update_requirement', details: text('analysis.stateDone', { id: r.id }, language) },
      });
    }
    for (const b of r.behaviors) {
      if (b.test_plan && (!Array.isArray(b.test_plan.expected) || b.test_plan.expected.length === 0)) {
        add({
          kind: 'partial',
          severity: 'warning',
          requirement_id: r.id,
          behavior_id: b.id,
          artifact: REQUIREMENTS_FILE,
          message: text('analysis.expectsNothing', { id: b.id }, language),
          location: lines.at(REQUIREMENTS_FILE, lines.requirementLine(r.id, b.id)),
          suggested_fix: { action: 'update_requirement', details: text('analysis.fillExpected', { id: b.id }, language) },
        });
      }
    }
  }
}
