/**
 * `@treeagent/core/client`: what a client of the server — the web app in a browser — may import from
 * the core: the types of the turn protocol (events, outputs, history, files) and the pure helpers
 * that read them. Nothing here imports a Node module, so a browser bundle can take it whole;
 * `client.test.ts` checks that for every module it reaches.
 */
export type { AgentOutput, OutputMessage, Source, TurnStatus } from './engine/agent-output.js';
export {
  type AgentEvent,
  type AgentEventType,
  type ExploreAction,
  type ExploreCandidate,
  isUserFacingEvent,
  USER_FACING_EVENT_TYPES,
} from './engine/events.js';
export { type ContentPart, placeholdersIn, splitDynamicContent } from './engine/message-content.js';
export type { TreeAgentErrorCode } from './errors/tree-agent-error.js';
export type { FileMetadata, FileOrigin } from './files/file-metadata.js';
export type { HistoryEntry } from './memory/history.js';
export type { ChunkId } from './tree/chunk.js';
