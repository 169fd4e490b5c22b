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

/**
 * Every sentence the core, the CLI and the webviews show, keyed, in English and Chinese. Each area
 * keeps its own table in this folder (one file per area, so parallel work does not collide); the
 * catalog is their union, and a key appears in exactly one table. The union is made on the first
 * lookup, not when the bundle loads: copying its keys cost every activation ~3 ms (see lazily).
 */
export const CATALOG = lazily(() => ({
  ...commonMessages,
  ...cliMessages,
  ...pipelineTextMessages,
  ...refusalMessages,
  ...authoringMessages,
  ...reviewMessages,
  ...traceMessages,
  ...checklistMessages,
  ...executingMessages,
  ...viewMessages,
  ...checksMessages,
  ...freshnessMessages,
  ...guardMessages,
  ...stalenessMessages,
  ...validatorMessages,
  ...artifactAnalysisMessages,
  ...planValidationMessages,
  ...omissionHuntMessages,
  ...subagentTextMessages,
  ...testReportTextMessages,
  ...fileMessages,
  ...mcpMessages,
  ...memoryMessages,
  ...verificationMessages,
  ...pipelineRunMessages,
  ...worktreeMessages,
  ...portMessages,
  ...modelMessages,
  ...hostChatMessages,
  ...hostCommandsMessages,
  ...hostCommentsMessages,
  ...hostExecutingMessages,
  ...hostFindingsMessages,
  ...hostGitMessages,
  ...hostLmToolsMessages,
  ...hostGeneralMessages,
  ...hostPipelineRunMessages,
  ...hostTreeMessages,
  ...hostWebviewsMessages,
  ...hostEntryMessages,
})) satisfies () => Readonly<Record<string, MessageEntry>>;

type Catalog = ReturnType<typeof CATALOG>;
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
  const entry: MessageEntry = CATALOG()[key];
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
  const entry: MessageEntry = CATALOG()[m.key];
  return formatText(entry[language], language, m.params);
}
