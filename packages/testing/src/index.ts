export { checkTurn, type Mismatch, type TurnOutcome } from './check-turn.js';
export type {
  AttachmentFixture,
  Conversation,
  ConversationFile,
  ConversationTurn,
  FixtureAnswer,
  Fixtures,
  TextExpectation,
  TurnExpectation,
} from './conversation.js';
export { formatFailures, formatSummary } from './format-results.js';
export { parseConversations, readConversationFile } from './parse-conversations.js';
export {
  type AgentOptionsSource,
  type ConversationResult,
  fixtureModel,
  runConversation,
  runConversationFile,
  type TurnResult,
} from './run-conversations.js';
