// What the host needs of the files Loom writes for VS Code's agents (src/core/agentHost).
export { MCP_JSON_FILE, withLoomServer, type McpJsonEdit } from '../agentHost/mcpJson';
export { stopVerdict, type StopVerdict } from '../agentHost/stopCheck';
export { startSession, stopWork } from '../agentHost/stopWork';
export { NodeTestRunner } from '../executing/evidence/testRunner';
