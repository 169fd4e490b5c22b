import { join } from 'node:path';
import type { ChatMessage } from '../executing/dispatch/chatModel';
import { loadTemplateSet, renderTemplate, type PromptLanguage } from '../executing/dispatch/prompts/promptTemplates';
import { clip } from '../executing/dispatch/specSections';
import { readOptionalText } from '../fs/readOptional';
import { anchorThread, quoteLines } from './anchoring';
import { REFINE_EN } from './prompts/refineEn';
import { REFINE_ZH } from './prompts/refineZh';
import type { ReviewThread } from './reviewComments';
import { t } from '../messages';

/** Named like the other prompts; a repository overrides it with `.loom/prompts/refine-prompt.md`. */
export const REFINE_PROMPT_NAME = 'refine-prompt';
const BUNDLED = { en: { [REFINE_PROMPT_NAME]: REFINE_EN }, zh: { [REFINE_PROMPT_NAME]: REFINE_ZH } } as const;
const FILE_LIMIT = 16000;

export interface RefineContext {
  repoRoot: string | undefined;
  language: PromptLanguage;
  /** Absolute spec directory, and its repository-relative name. */
  dir: string;
  specDir: string;
  /** The open threads to answer; their files are the only files the model is shown. */
  threads: readonly ReviewThread[];
  /** The stage each thread's file belongs to. */
  stageOf: (file: string) => string | undefined;
  request: string;
}

const lineRange = (a: number, b: number) => (a === b ? `line ${a}` : `lines ${a}-${b}`);

/** One thread as the model reads it: where it is now, the lines it quotes, and what was said. */
function renderThread(t: ReviewThread, text: string | undefined): string {
  const anchor = text === undefined ? undefined : anchorThread(t, text);
  const where = anchor ? `${lineRange(anchor.line, anchor.endLine)}${anchor.outdated ? ' (outdated: the quoted text is no longer in the file)' : ''}` : lineRange(t.line, t.end_line);
  const quoted = (anchor && !anchor.outdated && text !== undefined ? quoteLines(text, anchor.line, anchor.endLine) : t.quote)
    .split('\n')
    .map((l) => `> ${l}`)
    .join('\n');
  const said = t.comments.map((c) => `- ${c.author}: ${c.body.replace(/\n/g, '\n  ')}`).join('\n');
  return `THREAD ${t.id} — ${t.file}, ${where}\n${quoted}\n${said}`;
}

/**
 * The conversation for one refine: the open threads grouped by file, each file with its stage,
 * and the text of those files only. The rest of the spec and of the repository stays out: the
 * threads say what is wrong, and the model is asked to fix exactly that.
 */
export function buildRefineMessages(c: RefineContext): ChatMessage[] {
  const { templates } = loadTemplateSet(c.repoRoot, c.language, [REFINE_PROMPT_NAME], BUNDLED[c.language]);
  const open = c.threads.filter((t) => t.status === 'open');
  const files = [...new Set(open.map((t) => t.file))];
  const texts = new Map(files.map((f) => [f, readOptionalText(join(c.dir, f))]));
  const threads = files
    .map(
      (f) =>
        `### ${f} (stage: ${c.stageOf(f) ?? '?'})\n\n${open
          .filter((t) => t.file === f)
          .map((t) => renderThread(t, texts.get(f)))
          .join('\n\n')}`,
    )
    .join('\n\n');
  const body = files.map((f) => `### ${f}\n${clip(texts.get(f) ?? '', FILE_LIMIT)}`).join('\n\n');
  const values = new Map([
    ['spec_dir', c.specDir],
    ['threads', threads],
    ['files', body],
    ['writes', files.join(', ')],
    ['request', c.request.trim() || t('prompt.none', {}, c.language)],
  ]);
  return [{ role: 'user', content: renderTemplate(templates[REFINE_PROMPT_NAME], values) }];
}

/** What the model said it changed for each thread (`THREAD <id>: …` lines of its prose). */
export function threadAnswers(prose: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of prose.matchAll(/^\s*[-*]?\s*\**THREAD\s+([A-Za-z0-9_-]+)\**\s*[:：]\s*(.+?)\s*$/gm)) out.set(m[1], m[2]);
  return out;
}
