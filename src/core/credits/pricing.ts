/**
 * What a request costs in GitHub AI credits (1 credit = US$0.01), as Copilot bills it since June
 * 2026: input, cached input and output tokens, each times the model's price per million tokens.
 * VS Code's stable LanguageModelChat has no price; the proposed languageModelPricing API adds
 * `inputCost`, `outputCost` and `cacheCost` (credits per million tokens) to it, and where the
 * running VS Code offers them they are the price (readProviderPrice). Otherwise the published
 * prices kept here, which a person may override or add to (`loom.credits.prices`). A model found
 * in none is shown in tokens, and says so.
 */

/** Credits per million tokens. */
export interface ModelPrice {
  input: number;
  cachedInput: number;
  output: number;
}

export interface PriceTable {
  /** Where the prices were read, and when: a person can check them and see how old they are. */
  source: string;
  date: string;
  /** Keyed by the model's name as the source writes it. */
  models: ReadonlyMap<string, ModelPrice>;
  /** Models whose price a person gave in `loom.credits.prices`: their source is the setting. */
  overridden?: ReadonlySet<string>;
}

/** The tokens of one request (or of a sum of them). */
export interface TokenSpend {
  input: number;
  output: number;
  /** Input tokens served from the provider's cache, billed at the cached price; part of `input`. */
  cached?: number;
}

/** The model a request went to, as vscode.lm names it. */
export interface ModelRef {
  id: string;
  family?: string;
  name?: string;
  vendor?: string;
  /** The price the running VS Code gives for the model (languageModelPricing), preferred over the table. */
  price?: ModelPrice;
}

/** Where a price came from, as the surfaces name it. */
export const VSCODE_PRICE_SOURCE = 'VS Code (languageModelPricing)';
export const SETTINGS_PRICE_SOURCE = 'loom.credits.prices';

/**
 * The price a model object carries, read as the proposed languageModelPricing API words it
 * (`inputCost`, `outputCost`, `cacheCost`: credits per million tokens on LanguageModelChat). The
 * API is proposed, so nothing is assumed: a field that is missing, not a finite number or below
 * 0 is no price, and a model with neither input nor output cost has none.
 */
export function readProviderPrice(model: unknown): ModelPrice | undefined {
  if (!model || (typeof model !== 'object' && typeof model !== 'function')) return undefined;
  const field = (name: string): number | undefined => {
    try {
      const v = (model as Record<string, unknown>)[name];
      return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
    } catch {
      // A getter of a proposal that changed shape must not break a request.
      return undefined;
    }
  };
  const input = field('inputCost');
  const output = field('outputCost');
  if (input === undefined || output === undefined) return undefined;
  return { input, output, cachedInput: field('cacheCost') ?? input };
}

/** US dollars per million tokens, the published default tier, as credits: 1 credit = $0.01. */
const usd = (input: number, cachedInput: number, output: number): ModelPrice => ({ input: input * 100, cachedInput: cachedInput * 100, output: output * 100 });

/**
 * GitHub's published per-token prices of the models available in Copilot (default tier, under
 * the long-context threshold), from github/docs data/tables/copilot/models-and-pricing.yml.
 */
export const COPILOT_PRICES: PriceTable = {
  source: 'https://docs.github.com/en/copilot/reference/copilot-billing/models-and-pricing (github/docs data/tables/copilot/models-and-pricing.yml)',
  date: '2026-12-07',
  models: new Map<string, ModelPrice>([
    ['GPT-5 mini', usd(0.25, 0.025, 2)],
    ['GPT-5.3-Codex', usd(1.75, 0.175, 14)],
    ['GPT-5.4', usd(2.5, 0.25, 15)],
    ['GPT-5.4 mini', usd(0.75, 0.075, 4.5)],
    ['GPT-5.4 nano', usd(0.2, 0.02, 1.25)],
    ['GPT-5.5', usd(5, 0.5, 30)],
    ['GPT-5.6 Luna', usd(0.2, 0.02, 1.2)],
    ['GPT-5.6 Sol', usd(5, 0.5, 30)],
    ['GPT-5.6 Terra', usd(2, 0.2, 12)],
    ['Claude Haiku 4.5', usd(1, 0.1, 5)],
    ['Claude Sonnet 4', usd(3, 0.3, 15)],
    ['Claude Sonnet 4.5', usd(3, 0.3, 15)],
    ['Claude Sonnet 4.6', usd(3, 0.3, 15)],
    ['Claude Sonnet 5', usd(2, 0.2, 10)],
    ['Claude Opus 4.5', usd(5, 0.5, 25)],
    ['Claude Opus 4.6', usd(5, 0.5, 25)],
    ['Claude Opus 4.7', usd(5, 0.5, 25)],
    ['Claude Opus 4.8', usd(5, 0.5, 25)],
    ['Claude Opus 5', usd(5, 0.5, 25)],
    ['Gemini 3.1 Pro', usd(2, 0.2, 12)],
    ['Gemini 3.5 Flash', usd(1.5, 0.15, 9)],
    ['Gemini 3.6 Flash', usd(0.75, 0.075, 3.75)],
    ['Gemini 3.7 Flash', usd(0.75, 0.075, 3.75)],
    ['Grok 4.5', usd(2, 0.5, 6)],
    ['Grok 4.6', usd(2, 0.5, 6)],
    ['MAI-Code-1-Flash', usd(0.75, 0.075, 4.5)],
    ['MAI-Code-1.1-Flash', usd(0.2, 0.02, 1.2)],
    ['Raptor mini', usd(0.25, 0.025, 2)],
  ]),
};

/** A name as models are matched: `GPT-5 mini`, `gpt-5-mini` and `gpt5mini` are one model. */
const key = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Prices a person gives in `loom.credits.prices` (credits per million tokens), over the table's. */
export function withOverrides(table: PriceTable, overrides: unknown): PriceTable {
  if (!overrides || typeof overrides !== 'object' || Array.isArray(overrides)) return table;
  const models = new Map(table.models);
  const overridden = new Set(table.overridden ?? []);
  for (const [name, v] of Object.entries(overrides as Record<string, unknown>)) {
    const o = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
    const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : undefined);
    const input = n(o.input);
    const output = n(o.output);
    // A price without its input and output is no price: the model stays as the table has it.
    if (input === undefined || output === undefined) continue;
    models.set(name, { input, output, cachedInput: n(o.cachedInput) ?? n(o.cached) ?? input });
    overridden.add(name);
  }
  return { ...table, models, overridden };
}

/**
 * The price of a model: VS Code's own when it gives one, else the table's by the model's name,
 * family or id, written any way (case, dashes, spaces); with where it came from.
 */
export function findPrice(table: PriceTable, model: ModelRef): { name: string; price: ModelPrice; source: string } | undefined {
  if (model.price) return { name: model.name ?? model.family ?? model.id, price: model.price, source: VSCODE_PRICE_SOURCE };
  const wanted = [model.name, model.family, model.id].filter((x): x is string => !!x).map(key);
  for (const [name, price] of table.models) if (wanted.includes(key(name))) return { name, price, source: table.overridden?.has(name) ? SETTINGS_PRICE_SOURCE : `${table.source}, ${table.date}` };
  return undefined;
}

/** Credits of `spend` at `price`: (input − cached) × input + cached × cached input + output × output, per million. */
export function creditsOf(spend: TokenSpend, price: ModelPrice): number {
  const cached = Math.min(Math.max(spend.cached ?? 0, 0), spend.input);
  return ((spend.input - cached) * price.input + cached * price.cachedInput + spend.output * price.output) / 1_000_000;
}

/** Credits as a person reads them: two decimals, four under one credit. */
export function formatCredits(credits: number): string {
  return credits >= 1 || credits === 0 ? credits.toFixed(2) : credits.toFixed(4);
}

/** What a spec's runs cost, as `status --json` reports it: read from the token ledger kept in pipeline.state.json. */
export interface SpecCredits {
  total: number;
  /** Per stage: the executing stage's subagents, each stage's drafting. */
  stages: Record<string, number>;
  /** Models without a price, whose tokens are not in the total but counted here. */
  unpriced_models: string[];
  unpriced_tokens: { input: number; output: number };
  /** The table's source and date. */
  source: string;
  /** Each priced model and where its price came from: VS Code, the setting, or the table. */
  prices: Record<string, string>;
}

/** The credits a spec's state records (`metadata.token_usage.credits`), or undefined when no run priced a request. */
export function recordedCredits(metadata: Record<string, unknown> | undefined): SpecCredits | undefined {
  const usage = metadata?.token_usage;
  const credits = usage && typeof usage === 'object' ? (usage as Record<string, unknown>).credits : undefined;
  if (!credits || typeof credits !== 'object') return undefined;
  const c = credits as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
  const record = <T>(v: unknown, keep: (x: unknown) => x is T): Record<string, T> =>
    Object.fromEntries(v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v).filter((e): e is [string, T] => keep(e[1])) : []);
  const unpriced = (c.unpriced && typeof c.unpriced === 'object' ? c.unpriced : {}) as Record<string, unknown>;
  return {
    total: num(c.total),
    stages: record(c.stages, (x): x is number => typeof x === 'number' && Number.isFinite(x)),
    unpriced_models: Array.isArray(unpriced.models) ? unpriced.models.filter((m): m is string => typeof m === 'string') : [],
    unpriced_tokens: { input: num(unpriced.input), output: num(unpriced.output) },
    source: typeof c.source === 'string' ? c.source : '',
    prices: record(c.prices, (x): x is string => typeof x === 'string'),
  };
}
