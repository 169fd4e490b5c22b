// Drafting a stage's files with a model (@loom's authoring commands): the prompts, the drafts in
// its reply, their checks and writes.
export { buildAuthoringMessages, buildRepairMessage, loadAuthoringTemplates } from '../authoring/authoringPrompts';
export type { AuthoringTemplates } from '../authoring/authoringPrompts';
export { acceptedSpec, isAcceptance, specNamedIn } from '../authoring/chatIntent';
export type { Draft } from '../authoring/draftBlocks';
export { parseDrafts, renderDraft } from '../authoring/draftBlocks';
export { checkDrafts } from '../authoring/draftCheck';
export type { DraftBase, DraftChange, WrittenDrafts } from '../authoring/draftWrite';
export { describeChanges, draftBase, filesWritten, writeDrafts } from '../authoring/draftWrite';
export type { DraftingEvent, DraftingRequest, DraftingTurnResult } from '../authoring/draftingTurn';
export { runDraftingTurn } from '../authoring/draftingTurn';
export { featureDiff, featureDiffForPrompt } from '../authoring/featureDiff';
export type { AuthoringCommand } from '../authoring/stageCommands';
export { AUTHORING, commandForStage, isAuthoringCommand } from '../authoring/stageCommands';
export { starterText } from '../authoring/starterFiles';
export { detectLanguage } from '../executing/dispatch/prompts/promptTemplates';
export { reviewHasFixes } from '../review/reviewToAnswer';
export { replySummary } from '../authoring/draftBlocks';
