// Loom: Check Setup: the rules in the core, the facts from each surface's environment.
export type { SetupEnvironment, SetupFixKind, SetupItem, SetupItemId, SetupModel, SetupReport } from '../setupCheck/setupCheck';
export { checkSetup, runSetupNeeds, setupLines, setupStopMessage } from '../setupCheck/setupCheck';
export { repositoryFacts, testCommandFact, worktreeLocationFacts } from '../setupCheck/nodeFacts';
