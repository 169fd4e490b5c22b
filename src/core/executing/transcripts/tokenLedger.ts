import { COPILOT_PRICES, creditsOf, findPrice, formatCredits, type ModelRef, type PriceTable } from '../../credits/pricing';
import { LoomError } from '../../errors';
import { t } from '../../messages';
import type { SubagentRole } from '../dispatch/modelTier';

/**
 * Token accounting of the executing stage, counted with the model's own `countTokens` for every
 * request and reply. Persisted in pipeline.state.json `metadata.token_usage`:
 * `{ total, stages: { executing }, roles: { implementer, reviewer, test-reporter },
 *    tasks: { T1: { input, output, roles: {...} } }, updated_at }`.
 */
export interface TokenCount {
  input: number;
  output: number;
}

export interface TaskTokens extends TokenCount {
  roles: Record<string, TokenCount>;
}

export interface TokenUsage {
  total: TokenCount;
  stages: Record<string, TokenCount>;
  roles: Record<string, TokenCount>;
  tasks: Record<string, TaskTokens>;
  /** The same requests in AI credits, where the model's price is known (issue 49). */
  credits?: CreditUsage;
  /**
   * Requests and their output tokens per role (`drafter` for a stage's drafting): what a step of
   * that kind typically answers, for the estimate before the next one.
   */
  requests?: Record<string, { count: number; output: number }>;
  updated_at?: string;
}

/** Credits per total, stage, role and task; the requests to models without a price, in tokens. */
export interface CreditUsage {
  total: number;
  stages: Record<string, number>;
  roles: Record<string, number>;
  tasks: Record<string, number>;
  /** Models the price table does not know, and their tokens: shown in tokens, never as 0 credits. */
  unpriced: { models: string[]; input: number; output: number };
  /** Where the prices were read, and when. */
  source: string;
  /** Each priced model and where its price came from (VS Code, the setting, or the table with its date). */
  prices?: Record<string, string>;
}

/** A request's role: a subagent's, or `drafter` for a stage's drafting (`@loom`, Run Pipeline). */
export type RequestRole = SubagentRole | 'drafter';

/** What the next step is estimated to cost before it is sent: its prompt, and the typical output of its kind. */
export interface StepEstimate {
  input: number;
  /** The average output of this role's earlier requests on the spec; 0 when there were none. */
  output: number;
  /** Undefined: the model has no price, the estimate is in tokens only. */
  credits?: number;
  model: string;
}

export const TOKEN_USAGE_KEY = 'token_usage';

/** The per-spec budget is used up; dispatch stops until it is raised. */
export class TokenBudgetExceededError extends LoomError {
  constructor(
    readonly used: number,
    readonly budget: number,
  ) {
    super(`the token budget of this spec is used up: ${used} tokens counted, budget ${budget}; raise the budget setting to continue (finished work is kept)`);
  }
}

/**
 * The credits budget (`loom.budget.credits`) would be passed by the next request: the run stops
 * before it, saying how far it got and what the next request was estimated to cost.
 */
export class CreditBudgetExceededError extends TokenBudgetExceededError {
  constructor(
    readonly creditsUsed: number,
    readonly creditBudget: number,
    readonly nextEstimate: number,
  ) {
    super(0, 0);
    // `used` and `budget` of the token error are tokens; the credits are said in this message.
    this.message = t('credits.budgetStop', { used: formatCredits(creditsUsed), budget: formatCredits(creditBudget), next: formatCredits(nextEstimate) });
  }
}

const zero = (): TokenCount => ({ input: 0, output: 0 });
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
const count = (v: unknown): TokenCount => {
  const o = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  return { input: num(o.input), output: num(o.output) };
};
/** Entries of a record read from a file, as a Map: a task named `constructor` is just a key. */
const entriesOf = (v: unknown): [string, unknown][] => (v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v) : []);

export class TokenLedger {
  private total: TokenCount;
  private readonly stages = new Map<string, TokenCount>();
  private readonly roles = new Map<string, TokenCount>();
  private readonly tasks = new Map<string, { count: TokenCount; roles: Map<string, TokenCount> }>();
  private creditTotal = 0;
  private readonly credits = { stages: new Map<string, number>(), roles: new Map<string, number>(), tasks: new Map<string, number>() };
  private readonly unpriced = { models: new Set<string>(), input: 0, output: 0 };
  private readonly priceSources = new Map<string, string>();
  private readonly requests = new Map<string, { count: number; output: number }>();
  private prices: PriceTable = COPILOT_PRICES;

  constructor(saved?: unknown) {
    const o = (saved && typeof saved === 'object' ? saved : {}) as Record<string, unknown>;
    const c = (o.credits && typeof o.credits === 'object' ? o.credits : {}) as Record<string, unknown>;
    this.creditTotal = num(c.total);
    for (const [what, map] of Object.entries(this.credits)) for (const [k, v] of entriesOf(c[what])) map.set(k, num(v));
    const u = (c.unpriced && typeof c.unpriced === 'object' ? c.unpriced : {}) as Record<string, unknown>;
    for (const m of Array.isArray(u.models) ? u.models : []) if (typeof m === 'string') this.unpriced.models.add(m);
    this.unpriced.input = num(u.input);
    this.unpriced.output = num(u.output);
    for (const [k, v] of entriesOf(c.prices)) if (typeof v === 'string') this.priceSources.set(k, v);
    for (const [k, v] of entriesOf(o.requests)) {
      const r = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
      this.requests.set(k, { count: num(r.count), output: num(r.output) });
    }
    this.total = count(o.total);
    for (const [k, v] of entriesOf(o.stages)) this.stages.set(k, count(v));
    for (const [k, v] of entriesOf(o.roles)) this.roles.set(k, count(v));
    for (const [k, v] of entriesOf(o.tasks)) {
      const roles = new Map<string, TokenCount>();
      const t = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
      for (const [r, c] of entriesOf(t.roles)) roles.set(r, count(c));
      this.tasks.set(k, { count: count(v), roles });
    }
  }

  /** The prices credits are counted with (the table, with the person's overrides). */
  usePrices(prices: PriceTable): void {
    this.prices = prices;
  }

  add(entry: { stage: string; role: RequestRole; task?: string; input: number; output: number; model?: ModelRef; cached?: number }): void {
    const bump = (c: TokenCount) => {
      c.input += entry.input;
      c.output += entry.output;
    };
    if (entry.model) this.addCredits(entry as typeof entry & { model: ModelRef });
    const r = getOr(this.requests, entry.role, () => ({ count: 0, output: 0 }));
    r.count++;
    r.output += entry.output;
    bump(this.total);
    bump(getOr(this.stages, entry.stage, zero));
    bump(getOr(this.roles, entry.role, zero));
    if (entry.task) {
      const t = getOr(this.tasks, entry.task, () => ({ count: zero(), roles: new Map<string, TokenCount>() }));
      bump(t.count);
      bump(getOr(t.roles, entry.role, zero));
    }
  }

  private addCredits(entry: { stage: string; role: string; task?: string; input: number; output: number; model: ModelRef; cached?: number }): void {
    const found = findPrice(this.prices, entry.model);
    if (!found) {
      this.unpriced.models.add(entry.model.name ?? entry.model.family ?? entry.model.id);
      this.unpriced.input += entry.input;
      this.unpriced.output += entry.output;
      return;
    }
    const credits = creditsOf(entry, found.price);
    this.priceSources.set(found.name, found.source);
    const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + credits);
    this.creditTotal += credits;
    bump(this.credits.stages, entry.stage);
    bump(this.credits.roles, entry.role);
    if (entry.task) bump(this.credits.tasks, entry.task);
  }

  used(): number {
    return this.total.input + this.total.output;
  }

  creditsUsed(): number {
    return this.creditTotal;
  }

  /** The credits so far and the models without a price, as a run's result reports them. */
  creditSummary(): { used: number; unpriced: string[]; unpricedTokens: number } {
    return { used: this.creditTotal, unpriced: [...this.unpriced.models], unpricedTokens: this.unpriced.input + this.unpriced.output };
  }

  /** What sending `input` tokens to `model` costs, `output` tokens answered: undefined for a model without a price. */
  estimateCredits(model: ModelRef, input: number, output = 0): number | undefined {
    const found = findPrice(this.prices, model);
    return found ? creditsOf({ input, output }, found.price) : undefined;
  }

  /** The output a request of this role typically gets on this spec: the average of the ones recorded, 0 before the first. */
  typicalOutput(role: RequestRole): number {
    const r = this.requests.get(role);
    return r && r.count > 0 ? Math.round(r.output / r.count) : 0;
  }

  /** The next step's estimate: its prompt's tokens and the typical output of its role, at the model's price. */
  estimate(model: ModelRef, role: RequestRole, input: number): StepEstimate {
    const output = this.typicalOutput(role);
    const credits = this.estimateCredits(model, input, output);
    return { input, output, model: model.name ?? model.family ?? model.id, ...(credits !== undefined ? { credits } : {}) };
  }

  /** Whether this spend reaches 80 % of the budget (the warning's threshold). */
  nearLimit(budget: number | undefined): boolean {
    return budget !== undefined && budget > 0 && this.creditTotal >= 0.8 * budget;
  }

  /**
   * Stops before a request that would pass the credits budget: `next` is its estimated cost. A
   * request that reaches the budget exactly is made; one credit's fraction more is not.
   */
  checkCredits(budget: number | undefined, next = 0): void {
    if (budget === undefined || budget <= 0) return;
    if (this.creditTotal + next > budget || this.creditTotal >= budget) throw new CreditBudgetExceededError(this.creditTotal, budget, next);
  }

  ofTask(task: string): TokenCount {
    const t = this.tasks.get(task);
    return t ? { ...t.count } : zero();
  }

  /** Throws when a budget is set and reached. */
  checkBudget(budget: number | undefined): void {
    if (budget !== undefined && budget > 0 && this.used() >= budget) throw new TokenBudgetExceededError(this.used(), budget);
  }

  toJSON(now: string): TokenUsage {
    const obj = <V, O>(m: Map<string, V>, f: (v: V) => O) => Object.fromEntries([...m].map(([k, v]) => [k, f(v)]));
    return {
      total: { ...this.total },
      stages: obj(this.stages, (c) => ({ ...c })),
      roles: obj(this.roles, (c) => ({ ...c })),
      tasks: obj(this.tasks, (t) => ({ ...t.count, roles: obj(t.roles, (c) => ({ ...c })) })),
      credits: {
        total: this.creditTotal,
        stages: obj(this.credits.stages, (c) => c),
        roles: obj(this.credits.roles, (c) => c),
        tasks: obj(this.credits.tasks, (c) => c),
        unpriced: { models: [...this.unpriced.models], input: this.unpriced.input, output: this.unpriced.output },
        source: `${this.prices.source}, ${this.prices.date}`,
        prices: obj(this.priceSources, (c) => c),
      },
      requests: obj(this.requests, (r) => ({ ...r })),
      updated_at: now,
    };
  }
}

function getOr<V>(map: Map<string, V>, key: string, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}
