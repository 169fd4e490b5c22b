/**
 * Which class of model a role gets, after loom's model-selection rules: mechanical work on a fast
 * model, integration and judgement on a standard one, design and review on the strongest. The
 * host maps a tier to a concrete vscode.lm model (settings: vendor, family).
 */
export type ModelTier = 'fast' | 'standard' | 'strongest';
export type SubagentRole = 'implementer' | 'reviewer' | 'test-reporter';

export interface TierTask {
  complexity?: 'low' | 'medium' | 'high';
  owns: readonly string[];
}

export interface TierSignals {
  /** An upstream handoff's fingerprints no longer match the files. */
  staleHandoff?: boolean;
  /** A key fact is UNKNOWN in the task, its context or the subagent context. */
  unknownFacts?: boolean;
}

const ORDER: readonly ModelTier[] = ['fast', 'standard', 'strongest'];
const atLeast = (tier: ModelTier, floor: ModelTier): ModelTier => (ORDER.indexOf(tier) >= ORDER.indexOf(floor) ? tier : floor);

/**
 * - reviewer: always the strongest;
 * - test-reporter: standard (integration tests and a judgement against the spec);
 * - implementer: complexity low → fast, medium (or unstated) → standard, high → strongest. A low
 *   task that owns more than two paths is not "1-2 files" in loom's sense and gets standard;
 *   a stale handoff or unknown facts lift any task to at least standard.
 */
export function chooseModelTier(role: SubagentRole, task: TierTask | undefined, signals: TierSignals = {}): ModelTier {
  if (role === 'reviewer') return 'strongest';
  let tier: ModelTier = role === 'test-reporter' ? 'standard' : tierOfComplexity(task);
  if (role === 'implementer' && task && task.complexity === 'low' && task.owns.length > 2) tier = atLeast(tier, 'standard');
  if (signals.staleHandoff || signals.unknownFacts) tier = atLeast(tier, 'standard');
  return tier;
}

function tierOfComplexity(task: TierTask | undefined): ModelTier {
  switch (task?.complexity) {
    case 'low':
      return 'fast';
    case 'high':
      return 'strongest';
    default:
      return 'standard';
  }
}

/** Loom marks unresolved facts with the word UNKNOWN (未知 in Chinese specs). */
export const mentionsUnknown = (text: string): boolean => /\bUNKNOWN\b|未知/.test(text);
