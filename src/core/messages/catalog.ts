import type { MessageEntry, ParamNames, ParamValue } from './catalogTypes';
import { authoringMessages } from './authoring';
import { checklistMessages } from './checklist';
import { checksMessages } from './checks';
import { cliMessages } from './commandLine';
import { commonMessages } from './common';
import { executingMessages } from './executing';
import { freshnessMessages } from './freshness';
import { guardMessages } from './guards';
import { stalenessMessages } from './staleness';
import { validatorMessages } from './validators';
import { artifactAnalysisMessages } from './artifactAnalysis';
import { planValidationMessages } from './planValidation';
import { omissionHuntMessages } from './omissionHunt';
import { subagentTextMessages } from './subagentTexts';
import { testReportTextMessages } from './testReportTexts';
import { fileMessages } from './files';
import { pipelineTextMessages } from './pipelineTexts';
import { refusalMessages } from './refusals';
import { reviewMessages } from './review';
import { traceMessages } from './trace';
import { mcpMessages } from './mcp';
import { memoryMessages } from './memory';
import { verificationMessages } from './verification';
import { pipelineRunMessages } from './pipelineRun';
import { worktreeMessages } from './worktree';
import { modelMessages } from './models';
import { portMessages } from './port';
import { viewMessages } from '../../shared/messages/viewMessages';
import { lazily } from '../../shared/lazily';
import { formatText } from './format';
import { displayLanguage, type Language } from './language';
import { hostChatMessages } from './hostChat';
import { hostCommandsMessages } from './hostCommands';
import { hostCommentsMessages } from './hostComments';
import { hostExecutingMessages } from './hostExecuting';
import { hostFindingsMessages } from './hostFindings';
import { hostGitMessages } from './hostGit';
import { hostLmToolsMessages } from './hostLmTools';
import { hostGeneralMessages } from './hostGeneral';
import { hostPipelineRunMessages } from './hostPipelineRun';
import { hostTreeMessages } from './hostTree';
import { hostWebviewsMessages } from './hostWebviews';
import { hostEntryMessages } from './hostEntry';
import { personInLoopMessages } from './personInLoop';
import { setupCheckMessages } from './setupCheck';
import { driftMessages } from './drift';
import { agentHostMessages } from './agentHost';
import { creditsMessages } from './credits';
import { driftReconcileMessages } from './driftReconcile';
import { driftViewMessages } from '../../shared/messages/driftViewMessages';
import { taskReviewMessages } from './taskReview';

/**
 * Every sentence the core, the CLI, the host and the webviews show, keyed, in English and Chinese.
 * Each area keeps its own table in this folder (one file per area, so parallel work does not
 * collide; the host's are host*.ts); a key appears in exactly one table.
 */
export const TABLES = [
  commonMessages,
  cliMessages,
  pipelineTextMessages,
  refusalMessages,
  authoringMessages,
  reviewMessages,
  traceMessages,
  checklistMessages,
  executingMessages,
  viewMessages,
  checksMessages,
  freshnessMessages,
  guardMessages,
  stalenessMessages,
  validatorMessages,
  artifactAnalysisMessages,
  planValidationMessages,
  omissionHuntMessages,
  subagentTextMessages,
  testReportTextMessages,
  fileMessages,
  mcpMessages,
  memoryMessages,
  verificationMessages,
  pipelineRunMessages,
  worktreeMessages,
  portMessages,
  modelMessages,
  hostChatMessages,
  hostCommandsMessages,
  hostCommentsMessages,
  hostExecutingMessages,
  hostFindingsMessages,
  hostGitMessages,
  hostLmToolsMessages,
  hostGeneralMessages,
  hostPipelineRunMessages,
  hostTreeMessages,
  hostWebviewsMessages,
  hostEntryMessages,
  personInLoopMessages,
  setupCheckMessages,
  driftMessages,
  agentHostMessages,
  creditsMessages,
  driftReconcileMessages,
  driftViewMessages,
  taskReviewMessages,
] as const;

type Union<T extends readonly object[]> = T extends readonly [infer Head, ...infer Rest extends readonly object[]] ? Head & Union<Rest> : unknown;
type Catalog = Union<typeof TABLES>;

/**
 * The catalog as one table, for the tests that go over every key. A lookup does not make it:
 * copying its keys cost ~3 ms, which the first rows of the tree would pay (see lazily).
 */
export const CATALOG = lazily(() => Object.assign({}, ...TABLES) as Catalog) satisfies () => Readonly<Record<string, MessageEntry>>;

// A key's entry, found in its table on the key's first lookup.
const found = new Map<string, MessageEntry>();
function entryOf(key: string): MessageEntry {
  let entry = found.get(key);
  if (entry === undefined) {
    const table = TABLES.find((tb) => Object.hasOwn(tb, key));
    if (table === undefined) throw new Error(`no message ${key}`);
    found.set(key, (entry = (table as Readonly<Record<string, MessageEntry>>)[key]));
  }
  return entry;
}

export type MessageKey = keyof Catalog;

/** The parameters a key takes, checked by the compiler against its English text. */
export type MessageParams<K extends MessageKey> = { readonly [P in ParamNames<Catalog[K]['en']>]: ParamValue };

type ArgsOf<K extends MessageKey> = [ParamNames<Catalog[K]['en']>] extends [never] ? [params?: Record<string, never>, language?: Language] : [params: MessageParams<K>, language?: Language];

/**
 * The sentence for `key` in `language` (default: the process's display language). Texts are
 * whole sentences with named parameters; never build one from fragments, since word order
 * differs between the languages.
 */
export function t<K extends MessageKey>(key: K, ...[params, language]: ArgsOf<K>): string {
  const entry = entryOf(key);
  return formatText(entry[language ?? displayLanguage()], language ?? displayLanguage(), (params ?? {}) as Record<string, ParamValue>);
}

/**
 * A sentence not yet worded: what JSON output and the MCP tools carry next to the localized
 * text (`code` stays English and stable for scripts), and what a view renders in its own language.
 */
export interface Message<K extends MessageKey = MessageKey> {
  readonly key: K;
  readonly params: Readonly<Record<string, ParamValue>>;
}

export function message<K extends MessageKey>(key: K, ...[params]: ArgsOf<K>): Message<K> {
  return { key, params: (params ?? {}) as Record<string, ParamValue> };
}

export function render(m: Message, language: Language = displayLanguage()): string {
  const entry = entryOf(m.key);
  return formatText(entry[language], language, m.params);
}
