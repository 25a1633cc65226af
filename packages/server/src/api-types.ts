/**
 * The JSON shapes of the server's HTTP API (`/api/v1`), as clients receive them. The routes build
 * them and the web app (`packages/server/web`) reads them, so a change here is a type error on both
 * sides. Types only, from `@treeagent/core/client`: a browser bundle can import this module.
 */
import type {
  AgentEvent,
  AgentOutput,
  AnalyticsReport,
  ChunkId,
  ConversationSummary,
  FileMetadata,
  HandoffState,
  HistoryEntry,
  OperatorRef,
  StoredTurnFact,
  TreeDocument,
  UnmatchedMessage,
} from '@treeagent/core/client';

/**
 * Stable codes of the errors the HTTP API returns, besides the engine's `TreeAgentError` codes.
 * Clients can switch on them; they never change meaning.
 */
export type ApiErrorCode =
  | 'INVALID_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'HOST_NOT_ALLOWED'
  | 'QUOTA_EXCEEDED'
  | 'RATE_LIMITED'
  | 'SHUTTING_DOWN'
  | 'CONFLICT'
  | 'NOT_CONFIGURED'
  | 'OPERATOR_LOGIN_REQUIRED'
  | 'OPERATOR_LOGIN_FAILED'
  | 'AUDIT_LOG'
  | 'EDIT_CONFLICT'
  | 'INVALID_TREE'
  | 'CALLBACK_TYPE_ERRORS'
  | 'INTERNAL';

/** The `details` of an API error: each field is set by the errors it concerns. */
export type ApiErrorDetails = {
  /** `INVALID_REQUEST`: every problem of the request (a dotted path, `(body)` for the whole body), the message's first. */
  issues?: { path: string; message: string }[];
  /** The request field at fault (OpenAI's `param`). */
  param?: string;
  /** Engine errors: the node and callback where it happened. */
  nodeId?: number;
  /** `CALLBACK_TYPE_ERRORS`: the callbacks module's type errors (nothing was written). */
  diagnostics?: CallbackDiagnostic[];
  /** `POST /api/v1/route`: a start node that is not in the tree. */
  startNodeId?: number;
  callback?: string;
  /** `PAYLOAD_TOO_LARGE`: the limit of the body. */
  maxBytes?: number;
  /** `INVALID_REQUEST` on a message that is too long: the limit. */
  maxMessageLength?: number;
  /** `RATE_LIMITED`: when to try again. */
  retryAfterSeconds?: number;
  /** `RATE_LIMITED` on an event stream: which cap is full, and its size. */
  streamCap?: 'session' | 'operator' | 'address' | 'process';
  maxStreams?: number;
  /** `QUOTA_EXCEEDED`: which quota (the session's or the server's), its size, and what is left. */
  quota?: 'session' | 'server';
  quotaBytes?: number;
  remainingBytes?: number;
  /** `EDIT_CONFLICT`: the version of the tree file on disk now. */
  version?: string;
  /** `INVALID_TREE`: every problem of the tree that was refused. */
  problems?: EditorProblem[];
};

/** The one error body of the JSON API: `{ error: { code, message, details? } }`. */
export interface ErrorBody {
  error: {
    code: string;
    /** What was wrong and how to fix it, in English, for the developer. */
    message: string;
    details?: ApiErrorDetails;
    /**
     * What to tell the customer, in the request's language (the deployment's `locale`, else
     * `Accept-Language`): limits, refusals and server failures a chat shows.
     */
    userMessage?: string;
  };
}

/**
 * `POST /api/v1/sessions` body (optional): `userId`, the user the integrating application creates the
 * session for (an opaque reference; docs/privacy.md), so an admin can export or delete their data.
 */
export interface CreateSessionRequest {
  userId?: string;
  /**
   * The locale of the page or widget (`it-IT`, `en`): the session speaks the tree's language that
   * matches it; otherwise its language is detected from the first message (docs/multilingual-trees.md).
   */
  locale?: string;
}

/** `POST /api/v1/sessions` → 201. The token is shown once; send it as `X-Session-Token`. */
export interface CreatedSession {
  sessionId: string;
  token: string;
  /** With a `locale`: the tree's language it chose, or `null` when the tree speaks none that matches it. */
  language?: string | null;
}

/** `GET /api/v1/sessions/:id/history`. */
export interface HistoryResponse {
  sessionId: string;
  history: HistoryEntry[];
}

/** The body of `POST /api/v1/sessions/:id/messages`. */
export interface MessageRequest {
  /** The user's text; may be left out (or empty) when `selectedOption` is given. */
  message?: string;
  selectedOption?: string;
  /** Ids of files uploaded to the session. */
  attachments?: string[];
  clientMetadata?: Record<string, unknown>;
}

/** `POST /api/v1/sessions/:id/files` → 201: the stored file, with where to download it. */
export type UploadedFile = FileMetadata & { url: string };

/** An `AgentOutput` as clients receive it: the trace only in debug mode. */
export type ClientOutput = Omit<AgentOutput, 'trace'> & { trace?: AgentOutput['trace'] };

/** The `error` event of a stream: the HTTP status and the error body the JSON API would have answered. */
export type StreamErrorEvent = { type: 'error'; status: number } & ErrorBody;

/**
 * One event of a message's server-sent-event stream (`event: <type>`, `data: <this as JSON>`):
 * the engine's events (outside debug mode only the user-facing ones), `turn-end` with a
 * `ClientOutput`, and errors as `StreamErrorEvent`.
 */
export type ClientEvent =
  | Exclude<AgentEvent, { type: 'turn-end' | 'error' | 'tool-call' | 'tool-result' }>
  | ClientToolCallEvent
  | ClientToolResultEvent
  | { type: 'turn-end'; output: ClientOutput; durationMs: number }
  | StreamErrorEvent;

/** A tool the model called: with its arguments (`input`) only in debug mode. */
export type ClientToolCallEvent = Omit<Extract<AgentEvent, { type: 'tool-call' }>, 'input'> & {
  input?: unknown;
};

/** What a tool call returned: with the result (`output`) only in debug mode; `error` always. */
export type ClientToolResultEvent = Extract<AgentEvent, { type: 'tool-result' }>;

/** One node of the effective tree, as the tree view shows it. */
export interface TreeViewNode {
  id: number;
  type: string;
  name: string | null;
  description: string | null;
  parentId: number | null;
  children: number[];
  depth: number;
  /** Agent the node belongs to (`null` for the root). */
  agentId: number | null;
  /** The `self` scope: the root, or the component instance the node sits in. */
  scope: { id: number; kind: 'root' | 'component' };
  anchorId: number | null;
  similarityThreshold: number;
  isBlocking: boolean;
  isAnchor: boolean;
  isMute: boolean;
  /** Agents only: whether first interactions start from it. */
  isPrimary?: boolean;
  links: Record<string, number>;
  /** Names of the callbacks (or constant outputs) the node defines. */
  callbacks: string[];
  model: string | null;
  chunkCount: number;
  /** The node's chunks; only in debug mode. */
  chunks?: { id: ChunkId; text: string; forRag: boolean; extra: Record<string, unknown> }[];
}

/** `GET /api/v1/tree`: the effective tree (components flattened). */
export interface TreeView {
  name: string;
  contentHash: string;
  rootId: number;
  primaryAgentId: number;
  /** Nodes in depth-first order: the page `[offset, offset + limit)` of them. */
  nodes: TreeViewNode[];
  /** Number of nodes in the tree. */
  totalNodes: number;
  /** Number of exploration chunks in the tree. */
  totalChunks: number;
  /** Position of the page's first node in depth-first order. */
  offset: number;
  /** The `offset` of the next page, or `null` when this page reaches the last node. */
  nextOffset: number | null;
}

/** `POST /api/v1/route` (debug only): where exploration takes a text on a fresh session, and why. */
export interface RouteResponse {
  nodeId: number;
  nodeType: string;
  nodeName: string | null;
  noMatch: boolean;
  decisions: Extract<AgentEvent, { type: 'explore-decision' }>[];
}

/** A node as analytics shows it: id, name, similarity to something. */
export interface NodeSimilarity {
  nodeId: number;
  name: string | null;
  similarity: number;
}

/** One cluster of `GET /api/v1/analytics/unmatched`. */
export interface UnmatchedCluster {
  /** Stable within one answer: the index, largest first. */
  id: number;
  /** Times its messages were sent. */
  size: number;
  messages: UnmatchedMessage[];
  /** The nodes nearest to the cluster: each one's best chunk against the centroid of its messages (weighted by count), most similar first. */
  nearest: NodeSimilarity[];
}

/** `GET /api/v1/analytics/unmatched`. */
export interface UnmatchedResponse {
  filter: AnalyticsReport['filter'];
  /** Distinct unmatched messages considered (the most frequent, at most 2000). */
  messages: number;
  clusters: UnmatchedCluster[];
  /** What the cluster actions can do on this server. */
  actions: { addChunks: 'json-tree' | 'chunks-file' | null; addUtterances: boolean };
}

/** `GET /api/v1/analytics/compare`: the same range for two tree versions. */
export interface ComparisonResponse {
  a: AnalyticsReport;
  b: AnalyticsReport;
}

/** `GET /api/v1/analytics/conversations`. */
export interface ConversationsResponse {
  conversations: ConversationSummary[];
}

/** `GET /api/v1/analytics/conversations/:id`: the transcript and each turn's facts. */
export interface TranscriptResponse {
  sessionId: string;
  history: HistoryEntry[];
  facts: StoredTurnFact[];
}

/** Where the messages of an unmatched cluster go now (`POST /api/v1/analytics/unmatched/effect`). */
export interface EffectResponse {
  /** Messages routed to `nodeId` (or, for `none`, ending in no match) by the tree now running. */
  routed: number;
  total: number;
  treeVersion: string;
  messages: { message: string; nodeId: number | null; name: string | null; noMatch: boolean }[];
}

/** `POST /api/v1/analytics/unmatched/actions`. */
export interface ClusterActionResponse {
  action: 'add-chunks' | 'add-utterances';
  /** The file written, relative to the server's working directory (its name alone when outside it). */
  file: string;
  /** Texts written (chunks the node already had are skipped). */
  added: number;
  /** Where the messages go with the tree running when the action was taken (before a reload). */
  effect: EffectResponse;
}

/** What an operator may do: `operator` (the console), `admin` (also the audit log and admin pages). */
export type OperatorRoleName = 'operator' | 'admin';

/** An authenticated operator, as the API shows it. */
export interface OperatorView {
  id: string;
  name: string;
  role: OperatorRoleName;
  /** The teams (handoff queues) the operator works in, when the operators file or the sign-in provider names some. */
  teams?: string[];
}

/** The body of `POST /api/v1/operator/login`. */
export interface OperatorLoginRequest {
  login: string;
  password: string;
}

/**
 * `POST /api/v1/operator/login` → 200 (the login token goes in an HttpOnly cookie, never in the body)
 * and `GET /api/v1/operator/me`.
 */
export interface OperatorSessionView {
  operator: OperatorView;
  /** ISO 8601: when the login ends (absent from `/me`). */
  expiresAt?: string;
}

/** One entry of the audit log, as `GET /api/v1/operator/audit` returns it. */
export interface AuditEntryView {
  id: number;
  /** ISO 8601. */
  at: string;
  actorId: string;
  actorRole: string | null;
  action: string;
  sessionId: string | null;
  detail: Record<string, string | number | boolean | null>;
}

/** A handoff webhook event given up on (dead-lettered), as `GET /api/v1/operator/webhook/dead-letters` lists it. */
export interface WebhookDeadLetterView {
  /** The event's id: its `Idempotency-Key`, and what `POST …/dead-letters/:id/retry` takes. */
  id: string;
  type: 'handoff.started' | 'handoff.ended' | 'handoff.escalated';
  /** ISO timestamp of the transition. */
  at: string;
  sessionId: string;
  queue: string;
  /** Attempts made before giving up. */
  attempts: number;
  /** ISO timestamp of when it was given up. */
  givenUpAt: string;
  /** What the last attempt got (`HTTP 400`, `no answer in 10000 ms`, …). */
  lastError: string | null;
}

/** `GET /api/v1/operator/webhook/dead-letters?limit=` (admins): the outbox's counts and its dead letters, most recent first. */
export interface WebhookDeadLettersResponse {
  /** False when the server has no `handoff.webhook` (then everything else is empty). */
  configured: boolean;
  pending: number;
  dead: number;
  deadLetters: WebhookDeadLetterView[];
}

/** `POST /api/v1/operator/webhook/dead-letters/:id/retry` (admins) → 202: the event waits for a new series of attempts. */
export interface WebhookRetryResponse {
  id: string;
  status: 'pending';
}

/** `GET /api/v1/operator/audit?sessionId=&actorId=&action=&beforeId=&limit=` (admins): newest first. */
export interface AuditLogResponse {
  entries: AuditEntryView[];
  /** The `beforeId` of the next page, or `null` at the oldest entry. */
  nextBeforeId: number | null;
}

/**
 * The handoff as the user's page sees it (`handoff` events of `GET /api/v1/sessions/:id/events`):
 * waiting in a queue or claimed by an operator (by name), since when, and the tree's notice.
 */
export interface SessionEventHandoff {
  status: 'waiting' | 'claimed';
  queue: string;
  /** ISO 8601. */
  since: string;
  operatorName: string | null;
  message: string | null;
  returnOption: string | null;
}

/**
 * The events of `GET /api/v1/sessions/:id/events` (server-sent events, `event: <type>`):
 * `entry` (`id:` the row's 1-based position in the history: reconnect with `Last-Event-ID` to
 * resume after it), `handoff` (at the start and on every change; `null` when the agent has the
 * session), `typing` (an operator typing; not replayed).
 */
export type SessionEvent =
  | { type: 'entry'; index: number; entry: HistoryEntry }
  | { type: 'handoff'; handoff: SessionEventHandoff | null }
  | { type: 'typing'; operatorName: string; typing: boolean };

/** The body of `POST /api/v1/sessions/:id/typing`: the user is (or stopped) typing, for the operator who has the session. */
export interface UserTypingRequest {
  typing: boolean;
}

/**
 * An event of the operator console's stream (`GET /api/v1/operator/events`): `queue` (read the queue
 * again), `session` (read this session again), `typing` (the session's user is typing; not stored).
 */
export type OperatorEvent =
  | { type: 'queue' }
  | { type: 'session'; sessionId: string }
  | { type: 'typing'; sessionId: string; typing: boolean };

/** A handed-off session in the operator console's queue (`GET /api/v1/operator/handoffs`). */
export interface HandoffSummary {
  sessionId: string;
  status: 'waiting' | 'claimed' | 'closed';
  queue: string;
  reason: string;
  summary: string | null;
  /** ISO 8601: when the session was handed off. */
  since: string;
  /** Milliseconds since the handoff (at the server's clock, when the list was read). */
  waitingMs: number;
  operator: OperatorRef | null;
  claimedAt: string | null;
  lastUserMessageAt: string | null;
  closedAt: string | null;
  outcome: string | null;
  /** The user's last messages (at most 3), oldest first. */
  lastMessages: string[];
  noteCount: number;
  /** The messaging channel the user writes from (its name in channels.json), or `null` (web chat, API). */
  channel: string | null;
}

/** `GET /api/v1/operator/handoffs?status=open|closed&queue=`. */
export interface HandoffListResponse {
  handoffs: HandoffSummary[];
  /** The queues seen among open handoffs. */
  queues: string[];
}

/** An internal note, as the console shows it. */
export interface HandoffNoteView {
  at: string;
  operator: OperatorRef;
  text: string;
}

/** `GET /api/v1/operator/handoffs/:id`: everything the console shows about one session. */
export interface HandoffDetail {
  handoff: HandoffSummary;
  /** The engine's handoff now (`null` when the agent has the session again). */
  state: HandoffState | null;
  history: HistoryEntry[];
  notes: HandoffNoteView[];
  /** The session's record: state, position, fail counter, turns, files. */
  session: {
    turn: number;
    state: Record<string, unknown>;
    lastNodeId: number | null;
    failCounter: number;
    files: FileMetadata[];
    updatedAt: string;
  } | null;
  /**
   * Each turn's facts (status, node reached, explore decisions with similarity, threshold and
   * margin), from the session store's turn facts (docs/analytics.md); `null` when the store keeps none
   * (the in-memory store).
   */
  facts: StoredTurnFact[] | null;
}

/** The body of `POST /api/v1/operator/handoffs/:id/messages`. */
export interface OperatorMessageRequest {
  content: string;
  options?: string[];
  /** Ids of files uploaded with `POST /api/v1/operator/handoffs/:id/files`. */
  attachments?: string[];
}

/** The body of `POST /api/v1/operator/handoffs/:id/hand-back`: absent `nodeTarget`, the agent's default. */
export interface HandBackRequest {
  nodeTarget?: number;
  step?: 'explore' | 'before';
  resume?: boolean;
}

/** A problem of a tree being edited: where (node, when known), what, and how to fix it. */
export interface EditorProblem {
  nodeId?: number;
  message: string;
  fix: string;
}

/** A lint finding of a valid tree being edited (`treeagent lint`'s warnings). */
export interface EditorLintFinding {
  code: string;
  nodeId: number;
  message: string;
  fix: string;
}

/** `GET /api/v1/editor`: the tree file the editor edits, as it is on disk now. */
export interface EditorState {
  /** Absolute path of the JSON tree file. */
  path: string;
  /** Version of the file on disk (a hash of its text); `PUT /editor` takes it as `baseVersion`. */
  version: string;
  document: TreeDocument;
  /** The named function exports of the document's callback module, to pick callbacks from. */
  callbacks: string[];
  /** Whether the document can be saved (`false` for a tree defined in code: see `readOnlyReason`). */
  editable: boolean;
  readOnlyReason: string | null;
  /** Number of labelled utterances the threshold suggestions are computed from (0: none configured). */
  utterances: number;
}

/** One type error of the callbacks module, as the TypeScript compiler reports it. */
export interface CallbackDiagnostic {
  /** The module as the tree names it (`./tree.callbacks.ts`). */
  file: string;
  /** 1-based line and column of the start. */
  line: number;
  column: number;
  message: string;
  /** TypeScript's error code (`TS2322` is 2322). */
  code: number;
  /** Offset of the start in the text and the length of the span. */
  start: number;
  length: number;
}

/** `GET /api/v1/editor/callbacks`: the callbacks module the tree file names, its text and version. */
export interface CallbacksModuleState {
  /** The module as the tree file names it (`./tree.callbacks.ts`). */
  file: string;
  text: string;
  /** A hash of the text on disk: `PUT` takes it as `baseVersion`. */
  version: string;
}

/**
 * `GET /api/v1/editor/callbacks/types`: what the browser's TypeScript needs to check the module as
 * the server does: the compiler options of the project, and every file the server's compiler read
 * (the lib `.d.ts` files, the project's types, `package.json` files on the way), by path.
 */
export interface CallbacksTypeEnvironment {
  /** Path of the module as the compiler sees it (the root file of the program). */
  modulePath: string;
  /** The compiler's working directory (the project's: where its tsconfig.json is) and where its lib files are. */
  currentDirectory: string;
  defaultLibLocation: string;
  /** The project's compiler options (tsconfig.json), as TypeScript parsed them. */
  compilerOptions: Record<string, unknown>;
  files: Record<string, string>;
  /** Directories the compiler found on its way (module resolution asks for them). */
  directories: string[];
  /** Paths the compiler resolved through symbolic links, and where they lead. */
  realpaths: Record<string, string>;
}

/** `PUT /api/v1/editor/callbacks` `{ text, baseVersion }`: the new version, once written. */
export interface CallbacksSaveResponse {
  version: string;
}

/** `POST /api/v1/editor/check` `{ document }`: the draft's problems, lint findings and effective tree. */
export interface EditorCheckResponse {
  /** True when the draft builds (no problem): only then can it be saved. */
  valid: boolean;
  problems: EditorProblem[];
  lint: EditorLintFinding[];
  /** The effective tree of a valid draft (chunk texts included), or `null`. */
  tree: TreeView | null;
}

/** One node's place in the heat map of a routed message: its best own chunk against the message. */
export interface EditorHeat {
  nodeId: number;
  similarity: number;
  chunk: string;
}

/** `POST /api/v1/editor/route` `{ document, text }`: the route of a message through the draft. */
export interface EditorRouteResponse {
  route: RouteResponse;
  /** Nodes the turn went past (empty/switch nodes without callbacks) before the answering node. */
  passedThrough: number[];
  /** For every node with routing chunks, its best chunk's similarity to the message. */
  heat: EditorHeat[];
}

/** A pair of chunks of a node and of a sibling's subtree that routing may confuse. */
export interface EditorAmbiguousPair {
  chunk: string;
  otherNodeId: number;
  otherChunk: string;
  similarity: number;
}

/** `POST /api/v1/editor/ambiguity` `{ document, nodeId }`: the closest sibling chunks of a node. */
export interface EditorAmbiguityResponse {
  nodeId: number;
  pairs: EditorAmbiguousPair[];
}

/** One routing node's suggested threshold (`treeagent eval`'s suggestion). */
export interface EditorThresholdSuggestion {
  nodeId: number;
  name: string | null;
  current: number;
  currentSource: string;
  suggested: number | null;
  reason: string | null;
  shouldDescend: number;
  shouldStop: number;
  descendKept: number;
  stopRecall: number;
}

/** `POST /api/v1/editor/suggestions` `{ document }`: thresholds suggested from the labelled utterances. */
export interface EditorSuggestionsResponse {
  utterances: number;
  accuracy: number;
  suggestions: EditorThresholdSuggestion[];
}

/**
 * `POST /api/v1/editor/suggest-chunks` `{ document, nodeId }`: chunks suggested for a node (a model's
 * paraphrases, or unmatched messages without a model) and the routing eval without and with them.
 */
export interface EditorChunkSuggestionsResponse {
  nodeId: number;
  /** Where the suggestions come from: the configured model, or the analytics' unmatched messages. */
  source: 'model' | 'unmatched';
  /** New texts only; `count`: times an unmatched message was sent (null for a model's). */
  suggestions: { text: string; count: number | null }[];
  /** The eval on the labelled utterances without and with all the suggestions; null without utterances. */
  evaluation: {
    utterances: number;
    accuracyBefore: number;
    accuracyAfter: number;
    /** The node's recall (by its name); null for a node without a name or without utterances. */
    recallBefore: number | null;
    recallAfter: number | null;
    /** Confusions (expected → predicted) the suggestions add or make more frequent, with how many more. */
    confusionsIntroduced: { expected: string; predicted: string; count: number }[];
  } | null;
}

/** `PUT /api/v1/editor` `{ document, baseVersion, force? }` → the new version on disk. */
export interface EditorSaveResponse {
  version: string;
  path: string;
}

/** A version in `GET /api/v1/versions` (docs/versions.md). */
export interface VersionSummary {
  id: string;
  createdAt: string;
  author: string;
  message: string;
  parentId: string | null;
  diff: string;
}

/** `GET /api/v1/versions`: the tree's versions, newest first. */
export interface VersionsResponse {
  tree: string;
  versions: VersionSummary[];
}

/** `GET /api/v1/versions/diff?from=&to=`: what changed between two versions, one line per change. */
export interface VersionDiffResponse {
  from: string;
  to: string;
  lines: string[];
}

/** An environment in `GET /api/v1/versions/environments`, its history newest first. */
export interface EnvironmentState {
  name: string;
  versionId: string | null;
  gate: { minAccuracy: number | null; minOosRecall: number | null; maxRecallDrop: number | null };
  experiment: { name: string; variants: { versionId: string; percent: number }[]; startedAt: string } | null;
  history: {
    versionId: string;
    action: 'publish' | 'rollback';
    author: string;
    message: string;
    at: string;
  }[];
}

/** `POST /api/v1/versions/publish`: published, or refused by the gate with every failure. */
export interface PublishResponse {
  published: boolean;
  alreadyServed?: boolean;
  versionId: string;
  failures: string[];
}

/** One variant's figures in `GET /api/v1/versions/experiments/:environment`. */
export interface ExperimentVariantFigures {
  versionId: string;
  percent: number;
  conversations: number;
  contained: number;
  containmentRate: number;
  handoffRate: number;
  noMatchRate: number;
  fallbackRate: number;
  averageTurns: number;
  /** The average CSAT rating (1–5) of the sessions the variant ran, or `null` when none was rated. */
  csat: number | null;
  /** How many ratings `csat` averages. */
  csatRatings: number;
}

/** `GET /api/v1/versions/experiments/:environment`: the figures per variant and the test's decision. */
export interface ExperimentResponse {
  environment: string;
  name: string;
  startedAt: string;
  variants: ExperimentVariantFigures[];
  decision: {
    status: 'continue' | 'winner' | 'no-difference';
    winner: string | null;
    sampleSize: number;
    z: number | null;
    pValue: number | null;
    method: string;
  };
}

/** A canned response (`/api/v1/operator/canned`): its `/shortcut`, team (`null`: every team) and text with `{{name}}`, `{{state.<field>}}`. */
export interface CannedResponseView {
  id: string;
  shortcut: string;
  team: string | null;
  text: string;
  updatedAt: string;
}

/** The body of `POST /api/v1/sessions/:id/callback`: how and when to call the user back (out of hours). */
export interface CallbackRequestBody {
  contact: { kind: 'phone' | 'email'; value: string };
  /** A day and a range of hours (`YYYY-MM-DD`, `HH:MM`), in the team's time zone. */
  window: { date: string; from: string; to: string };
}

/** A callback request as the session's user and the operators read it. */
export interface CallbackRequestView extends CallbackRequestBody {
  id: string;
  sessionId: string;
  team: string;
  /** The team's time zone (of the window), or `null` when the team has no business hours now. */
  timeZone: string | null;
  status: 'open' | 'done';
  createdAt: string;
  doneAt: string | null;
  doneBy: string | null;
}

/** `GET /api/v1/sessions/:id/callback`: whether the callback form is offered now, and the open request. */
export interface SessionCallbackResponse {
  offered: boolean;
  timeZone: string | null;
  request: CallbackRequestView | null;
}
