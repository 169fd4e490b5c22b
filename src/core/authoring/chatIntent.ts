/**
 * Reading what the user meant in a chat turn: accepting the pending drafts, and which spec they
 * named. Acceptance is a short, whole reply ("write", "looks good", "确认"); anything longer is a
 * request for changes and goes to the model, so a sentence such as "ok but rename T2" is never
 * taken for a yes.
 */
const ACCEPT = /^(?:write(?: (?:them|it|the files|these files))?|accept(?:ed)?|yes|y|ok(?:ay)?|lgtm|looks good(?: to me)?|go ahead|do it|ship it|写入|确认|可以|好|好的|同意|没问题)[\s.!。！]*$/i;

export function isAcceptance(prompt: string): boolean {
  return ACCEPT.test(prompt.trim());
}

/**
 * The spec a prompt names: its directory (`specs/2026-11-29+login`), its folder name
 * (`2026-11-29+login`) or its feature slug (`login`, as a whole word). The longest match wins, so
 * `login-audit` is not taken for `login`. Undefined when none, or when two specs tie.
 */
export function specNamedIn(prompt: string, specDirs: readonly string[]): string | undefined {
  const text = prompt.toLowerCase();
  let best: { dir: string; length: number } | undefined;
  let tie = false;
  for (const dir of specDirs) {
    const name = dir.split('/').pop() ?? dir;
    const slug = name.includes('+') ? name.slice(name.indexOf('+') + 1) : name;
    for (const candidate of [dir, name, slug].map((c) => c.toLowerCase())) {
      if (!candidate) continue;
      const re = new RegExp(`(?<![\\w+/-])${candidate.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`);
      if (!re.test(text)) continue;
      if (!best || candidate.length > best.length) {
        best = { dir, length: candidate.length };
        tie = false;
      } else if (candidate.length === best.length && best.dir !== dir) tie = true;
      break;
    }
  }
  return best && !tie ? best.dir : undefined;
}

/** What an earlier `@loom` answer of the conversation recorded about its turn. */
export interface AnsweredTurn {
  command?: string;
  /** The spec directory the turn was about. */
  dir?: string;
  /** Id of the drafts the turn left pending. */
  pending?: string;
}

/**
 * The spec a "write" accepts: the one of the latest preview in this conversation (of `command`,
 * when the user gave one), while its drafts are still pending. The user accepts what they were
 * just shown, whichever spec is selected in the Loom view or open in the editor.
 */
export function acceptedSpec(turns: readonly AnsweredTurn[], command: string | undefined, isPending: (id: string) => boolean): string | undefined {
  const last = [...turns].reverse().find((t) => t.pending && (!command || t.command === command));
  return last?.pending && last.dir && isPending(last.pending) ? last.dir : undefined;
}
