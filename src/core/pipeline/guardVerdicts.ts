import type { SpecSnapshot } from '../specdir/specSnapshot';
import { guardKey, type GuardCall } from './guardCall';
import { evaluateGuard, GUARDS, type GuardOutcome, type GuardRegistry } from './guards';
import { DEFAULT_TEAM_RULES, type TeamRules } from './teamRules';

/**
 * The guards' verdicts on one facts snapshot, each guard evaluated once however many
 * transitions, views and explanations ask: the machine's guards, the refusal's reasons, the
 * dashboard's checklist, the tree's description and the CLI's `next` all read from here.
 * A snapshot never changes, so neither does a verdict; a change on disk brings a new snapshot.
 */
export class GuardVerdicts {
  private readonly memo = new Map<string, GuardOutcome>();
  /** How many guard evaluations this snapshot took (for tests and the log). */
  evaluations = 0;

  constructor(
    readonly snapshot: SpecSnapshot,
    private readonly registry: GuardRegistry = GUARDS,
    readonly rules: TeamRules = DEFAULT_TEAM_RULES,
  ) {}

  outcome(call: GuardCall): GuardOutcome {
    const key = guardKey(call);
    let found = this.memo.get(key);
    if (!found) {
      this.evaluations++;
      found = evaluateGuard(call, { snapshot: this.snapshot, rules: this.rules }, this.registry);
      this.memo.set(key, found);
    }
    return found;
  }
}
