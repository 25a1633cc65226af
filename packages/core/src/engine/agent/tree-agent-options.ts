import type { RoutingLanguage } from '../../embedding/default-embedder.js';
import type { Embedder } from '../../embedding/embedder.js';
import type { EmbeddingCache } from '../../embedding/embedding-cache.js';
import type { CalibrationOptions } from '../../explore/calibrate-thresholds.js';
import type { ExploreScan, ExploreThreads } from '../../explore/chunk-index.js';
import type { FileStore } from '../../files/file-store.js';
import type { LanguageDetector } from '../../model/language-detector.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { RedactionOptions, Redactor } from '../../privacy/redactor.js';
import type { ChannelConversation, InboundReceipt } from '../../protocol/channel.js';
import type { FileMetadata } from '../../protocol/file-metadata.js';
import type { SessionStore } from '../../session/session-store.js';
import type { Tree } from '../../tree/tree.js';
import type { VectorStore } from '../../vector/vector-store.js';
import type { ExploreIn } from '../runtime/load-runtime.js';
import type { MissingModels, ModelHelp } from '../runtime/missing-models.js';
import type { FitMode, SpaceFitter } from '../runtime/space-fitter.js';
import type { SessionTrees } from './session-trees.js';

/** Default `callbackTimeoutMs`: 30 s. */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 30_000;
/** Default `modelTimeoutMs`: 120 s. */
export const DEFAULT_MODEL_TIMEOUT_MS = 120_000;

export interface TreeAgentOptions {
  tree: Tree;
  /**
   * Sessions that keep the tree version they started on (docs/versions.md): before each turn the
   * agent asks which tree the session runs on, and runs it there. Default: every session on `tree`.
   */
  sessionTrees?: SessionTrees;
  /**
   * How many trees besides `tree` stay loaded for `sessionTrees` (each holds its chunk index in
   * memory); a tree is unloaded as soon as no session uses it (its sessions deleted or moved), and
   * beyond the bound the one used least recently goes first, once no turn runs on it. Default 4.
   */
  maxLoadedTrees?: number;
  /**
   * How many bytes the trees besides `tree` may hold together (their runtimes' estimated memory:
   * chunk index and chunk texts, docs/versions.md); beyond it the least recently used is unloaded
   * first, never one a turn runs on nor the one used last. Default 256 MiB.
   */
  maxLoadedTreeBytes?: number;
  /**
   * Embeds chunks and directions. Default: the offline `HashedEmbedder`, analysing words in the
   * tree's language (`defaultEmbedderFor(tree, language)`).
   */
  embedder?: Embedder;
  /**
   * The language of the tree, for the default embedder: `'auto'` (default) detects it from the
   * exploration chunks; `'it'`, `'es'`, `'fr'`, `'de'`, `'pt'` stem and drop stop words of that
   * language; `'en'` or `'none'` hash words as written. Ignored with `embedder`. docs/routing.md,
   * "More than English".
   */
  language?: RoutingLanguage;
  /** Where chunk embeddings are cached by model id and text. Default: in memory. */
  embeddingCache?: EmbeddingCache;
  /**
   * Where the vectors of what turns embed (messages, directions, retrieval queries) are cached:
   * `'memory'` (default) keeps the most recent `RECENT_EMBEDDINGS_DEFAULT` in process memory, read
   * through to `embeddingCache` but never written to it — a turn writes nothing for its embedding,
   * and users' messages leave no vectors in the cache's file or table; `'embedding-cache'` writes
   * them to `embeddingCache` like chunks (a message seen again after a restart is not re-embedded).
   * docs/deployment.md, "Large knowledge bases".
   */
  messageEmbeddings?: 'memory' | 'embedding-cache';
  /** Where sessions live. Default: in memory (lost on exit). */
  sessionStore?: SessionStore;
  /** Where query nodes search their `forRag` chunks. Default: in memory. */
  vectorStore?: VectorStore;
  /** Where the conversation's files live (attachments, files made in code). Default: in memory. */
  fileStore?: FileStore;
  /** A language model, or models by name (`default` for nodes that name none). */
  models?: LanguageModel | Record<string, LanguageModel>;
  /**
   * A model the tree needs that `models` lacks (an llm node, a GENERATED message, a generated
   * guardrail warning, the smart extended message): `'fail'` (default) refuses to load the tree
   * with `MODEL_NOT_CONFIGURED`; `'notice'` loads it, and a node that needs the missing model answers
   * with a warning message saying that no language model is configured and how to configure one
   * (`modelHelp`) — for authoring tools that run a tree before its models are set up (`treeagent dev`).
   */
  missingModels?: MissingModels;
  /**
   * How this program's users configure the model named `model`, for `MODEL_NOT_CONFIGURED` messages
   * and the notices of `missingModels: 'notice'`. Default: pass `models` to `new TreeAgent`. The
   * `treeagent` CLI names its configuration file and environment variables.
   */
  modelHelp?: ModelHelp;
  /** Nodes one turn may execute before `LOOP`. Default 50. */
  maxSteps?: number;
  /** Fallbacks one turn may run before the error is returned. Default 3. */
  maxFallbacks?: number;
  /**
   * Longest an async author callback (`before`, `after`, `emit`, `prompt`, `query`, `fallback`,
   * `beforeRun`, …) may take, in milliseconds. Past it the turn raises `TIMEOUT` naming the node and
   * the callback, handled like any callback error (the agent's `fallback`, else the turn fails and
   * nothing is saved). The late callback is abandoned, not stopped. 0 disables. Default 30 000.
   */
  callbackTimeoutMs?: number;
  /**
   * Longest one language model call may take, in milliseconds (for a stream: until its last part).
   * Past it the call's `signal` is aborted and the turn raises `TIMEOUT` on the node. 0 disables.
   * Default 120 000.
   */
  modelTimeoutMs?: number;
  /**
   * Where exploration searches the tree's chunks: `memory` (default; one matrix, fastest) or
   * `vector-store` (every chunk in the vector store with its path in the payload; for trees too large
   * for memory, or to share one index between processes).
   */
  exploreIn?: ExploreIn;
  /**
   * How in-memory exploration reads the chunk vectors (`exploreIn: 'memory'`): `exact` scores every
   * chunk in float32 once per direction; `sign-bits` ranks a node's chunks by one sign bit per
   * dimension and rescores the nearest few hundred exactly in float32 (dense vectors only); `auto`
   * (default) uses sign bits from `SIGN_SCAN_FROM` (5,000) chunks on (docs/architecture.md, "Large trees").
   */
  exploreScan?: ExploreScan;
  /**
   * Threads of the sign-bit pass (`exploreScan` with sign bits): `1`, `2` (a worker thread takes
   * about half the rows of each pass; it never keeps the process alive and is stopped when the
   * agent is collected; if it fails, one warning is logged and the pass runs on one thread with the
   * same results), or `auto` (default: 2 from 250,000 chunks on, on two processors or more;
   * docs/architecture.md, "Large trees").
   */
  exploreThreads?: ExploreThreads;
  /**
   * Where in-memory exploration keeps its packed index files (docs/architecture.md, "Packed index
   * files"): one file per tree content and embedder, written after the first load and read whole on
   * the next start instead of one cache lookup per chunk; from `ROWS_IN_FILE_FROM` (20,000) chunks on
   * (with sign bits) the float32 rows stay in the file and only a few per decision are read. A file that does not match the tree
   * is logged and ignored. Default: the embedding cache's `indexDirectory` (`index/` beside the
   * SQLite file of `openSqlite`, or in the `FileEmbeddingCache` directory); none for the in-memory
   * cache. `false`: never.
   */
  indexDirectory?: string | false;
  /**
   * Automatic `similarityThreshold` for every routing node without one set by hand (on the node or
   * as the root's `defaultSimilarityThreshold`): calibrated at load from the tree's own chunks, so
   * that out-of-scope messages reach the agent's fallback instead of the nearest node
   * (docs/routing.md). Options tune it; `false` keeps `DEFAULT_SIMILARITY_THRESHOLD`. Default on.
   */
  calibrateThresholds?: boolean | CalibrationOptions;
  /**
   * Personal data redaction (docs/privacy.md): e-mail addresses, phone numbers, IBANs, payment card
   * numbers, codici fiscali and your own patterns are replaced by `[name]` placeholders in everything
   * stored (history, turn facts) and, unless listed in `liveTurn`, in what the turn itself sees.
   * Default: no redaction.
   */
  redaction?: RedactionOptions | Redactor;
  /**
   * Record one analytics row per turn in the turn's own commit (docs/analytics.md), for stores that
   * keep them (SQLite, PostgreSQL). Default true.
   */
  turnFacts?: boolean;
  /**
   * Fits the embedding space to the tree at load (docs/routing.md, "Fitting at load"): the agent
   * serves in the unfitted space while the fit runs in the background (a worker thread), then
   * switches to the fitted space atomically, its calibrated thresholds computed again in it; a fit
   * that fails is logged and the unfitted space keeps serving. `'auto'` (default): the default
   * embedder, in memory, a tree of `AUTO_FIT_MIN_CHUNKS` exploration chunks or more; `true`: any
   * embedder and tree; `false`: never. Thresholds set by hand apply in the fitted space once it is
   * in place. `agent.space()` says where it stands.
   */
  fit?: FitMode;
  /**
   * What fits the space: `spaceFitter()` of `@treeagent/fit` (`spaceFitter({ cacheDirectory })` keeps
   * fits across restarts, as `treeagent dev` does in its data directory). Default: none, and the agent
   * stays unfitted whatever is installed (`agent.space()` says so); the `treeagent` CLI passes one.
   */
  spaceFitter?: SpaceFitter;
  /**
   * Lines about what the agent does in the background (the automatic fit: started, ready, failed).
   * Default: warnings on stderr (`console.warn`), information dropped.
   */
  log?: (level: 'info' | 'warn', message: string) => void;
  /** Clock, for deterministic tests. */
  now?: () => Date;
  /**
   * Tells a session's language from its first message, when the tree declares several `languages`
   * and the client gave no locale (docs/multilingual-trees.md). Default: `eldLanguageDetector` (eld,
   * offline, loaded on first use).
   */
  languageDetector?: LanguageDetector;
}

/** What travels with a user message. */
export interface SendOptions {
  attachments?: FileMetadata[];
  /** Sent by the client; callbacks read it in `context.metadata.clientMetadata`. */
  clientMetadata?: Record<string, unknown>;
  /** The option the user picked among those of the last message. */
  selectedOption?: string;
  /** Cancels the turn; nothing is saved. */
  signal?: AbortSignal;
  /**
   * The platform's id of the update this message came in (a messaging channel, docs/channels.md).
   * It is recorded in the turn's commit; a turn whose receipt the store already holds fails with
   * `DUPLICATE_DELIVERY` and runs nothing, so a redelivered update never runs a turn twice.
   */
  inbound?: InboundReceipt;
  /**
   * The messaging channel conversation the message came from (with `inbound`): the turn's answer is
   * added to the channel outbox in the same commit as the turn (`SessionCommit.outbound`), so it is
   * sent even when the process dies right after the commit. The store's own channel store
   * (`sessionStore.channelStore()`) receives it.
   */
  replyTo?: ChannelConversation;
  /**
   * The user the session belongs to (the application's user id, a messaging channel's user):
   * `sessionTrees` gets it, so an experiment gives one user the same variant in all their sessions
   * (docs/versions.md). Absent: the split is by session id.
   */
  userId?: string;
}
