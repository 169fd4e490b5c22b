import { ModelRequestError } from './chatModel';

/**
 * Which model failures go away by themselves: a rate limit, a provider that is overloaded or
 * briefly down, a network that dropped. They are worth asking again after a pause; a refusal
 * (`NoPermissions`, `Blocked`, `NotFound`), a quota used up or a prompt too large never is.
 * VS Code's LanguageModelError says `Unknown` for all of the first kind and keeps the provider's
 * error as its `cause`, so the decision reads the cause chain.
 */

/** Node's and undici's codes of a connection that failed or timed out. */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** HTTP statuses a provider answers while it is busy or briefly down. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/** A provider's words for the same (Copilot's `ChatRateLimited`, "Rate limit exceeded", "overloaded"). */
const TRANSIENT_WORDS =
  /rate.?limit|too many requests|overloaded|temporarily unavailable|service unavailable|bad gateway|gateway time-?out|timed out|socket hang up|network error|fetch failed|connection (?:reset|refused|closed)/i;

/** Words of failures that asking again does not cure, even when they come with a busy status. */
const LASTING_WORDS = /quota|context (?:length|window)|token limit|maximum context|too large/i;

interface ErrorLike {
  code?: unknown;
  status?: unknown;
  statusCode?: unknown;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The error and its causes, at most a few deep (a cause chain may loop). */
function chain(e: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  for (let c: unknown = e; c && typeof c === 'object' && out.length < 6 && !out.includes(c as ErrorLike); c = (c as ErrorLike).cause) out.push(c as ErrorLike);
  return out;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Whether asking the model again, after a pause, may succeed. */
export function isTransientModelError(e: unknown): boolean {
  // A code VS Code names is a decision of the provider or of the person: never retried.
  if (e instanceof ModelRequestError && e.code !== 'Unknown') return false;
  if (!(e instanceof Error)) return false;
  const links = chain(e);
  const words = links.map((l) => `${text(l.name)} ${text(l.message)}`).join(' ');
  if (LASTING_WORDS.test(words)) return false;
  return links.some((l) => {
    if (typeof l.code === 'string' && NETWORK_CODES.has(l.code)) return true;
    const status = typeof l.status === 'number' ? l.status : typeof l.statusCode === 'number' ? l.statusCode : undefined;
    if (status !== undefined && TRANSIENT_STATUSES.has(status)) return true;
    return TRANSIENT_WORDS.test(`${text(l.name)} ${text(l.code)} ${text(l.message)}`);
  });
}

/**
 * How long the provider asked to wait, in milliseconds, when it said so: a `retryAfter` (seconds)
 * on the error, or "retry after 20 seconds" / "wait 2 minutes" in its words.
 */
export function askedDelayMs(e: unknown): number | undefined {
  for (const l of chain(e)) {
    const after = (l as { retryAfter?: unknown }).retryAfter;
    if (typeof after === 'number' && Number.isFinite(after) && after >= 0) return after * 1000;
    const m = /(?:retry|wait)\D{0,20}?(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)\b/i.exec(text(l.message));
    if (m) {
      const n = Number(m[1]);
      const unit = m[2].toLowerCase();
      return unit.startsWith('ms') || unit.startsWith('milli') ? n : unit.startsWith('m') ? n * 60_000 : n * 1000;
    }
  }
  return undefined;
}
