// The contract and its in-memory reference live in core beside the other operator contracts
// (`@treeagent/core/adapter`, conformance suite `describeSessionTokens`); the server's files import them here.
export {
  type ExpiryCutoff,
  InMemorySessionTokens,
  type SessionTokenInfo,
  type SessionTokens,
} from '@treeagent/core/adapter';
