import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectLanguage } from '../executing/dispatch/prompts/promptTemplates';
import type { Language } from '../messages';

/**
 * The language of the spec's own words (spec.md), told the way the authoring and executing
 * prompts tell it: what Loom writes for loom's agents to read (the tasks converge appends)
 * follows the spec, not the user's display language. No spec.md reads as English.
 */
export function specLanguage(s: { dir: string }): Language {
  let text = '';
  try {
    text = readFileSync(join(s.dir, 'spec.md'), 'utf8');
  } catch {
    // A spec without spec.md has no language of its own yet.
  }
  return detectLanguage(text);
}
