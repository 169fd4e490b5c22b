import { LoomError } from '../../errors';
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
  updated_at?: string;
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

  constructor(saved?: unknown) {
    const o = (saved && typeof saved === 'object' ? saved : {}) as Record<string, unknown>;
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

  add(entry: { stage: string; role: SubagentRole; task?: string; input: number; output: number }): void {
    const bump = (c: TokenCount) => {
      c.input += entry.input;
      c.output += entry.output;
    };
    bump(this.total);
    bump(getOr(this.stages, entry.stage, zero));
    bump(getOr(this.roles, entry.role, zero));
    if (entry.task) {
      const t = getOr(this.tasks, entry.task, () => ({ count: zero(), roles: new Map<string, TokenCount>() }));
      bump(t.count);
      bump(getOr(t.roles, entry.role, zero));
    }
  }

  used(): number {
    return this.total.input + this.total.output;
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
      updated_at: now,
    };
  }
}

function getOr<V>(map: Map<string, V>, key: string, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) map.set(key, (v = make()));
  return v;
}
