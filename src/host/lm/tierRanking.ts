/**
 * Which of the available models serves a tier when the settings name no family: VS Code's own
 * ordering, ranked by context size (strongest = the largest maxInputTokens, fast = the smallest,
 * standard = the one in the middle). No vscode import, so it is unit-tested in plain Node.
 */
export type Tier = 'fast' | 'standard' | 'strongest';

export interface RankedModel {
  readonly id: string;
  readonly maxInputTokens: number;
}

export function pickForTier<M extends RankedModel>(models: readonly M[], tier: Tier): M | undefined {
  if (models.length === 0) return undefined;
  // Equal sizes keep selectChatModels' order: the first listed wins.
  const ranked = (dir: 1 | -1) =>
    models
      .map((m, i) => ({ m, i }))
      .sort((a, b) => dir * (a.m.maxInputTokens - b.m.maxInputTokens) || a.i - b.i)
      .map((x) => x.m);
  if (tier === 'fast') return ranked(1)[0];
  if (tier === 'strongest') return ranked(-1)[0];
  const ascending = ranked(1);
  return ascending[Math.floor((ascending.length - 1) / 2)];
}
