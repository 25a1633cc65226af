/**
 * One saved state of a tree (docs/versions.md): immutable, identified by the hash of its content —
 * the tree document and its callbacks module — so saving the same content twice records it once.
 */
export interface TreeVersion {
  /** The tree's name: a store keeps the versions of several trees apart. */
  tree: string;
  /** The first 12 hexadecimal digits of `hash`: what users type (`--version 3f2a…`). */
  id: string;
  /** SHA-256 (hex) of the document's hash and the callbacks module's hash together. */
  hash: string;
  /** SHA-256 (hex) of `document`. */
  documentHash: string;
  /** SHA-256 (hex) of the callbacks module (or a code tree's source files); `null` when there is none. */
  callbacksHash: string | null;
  /** The tree document (JSON text, the layout the editor writes). */
  document: string;
  createdAt: Date;
  /** Who saved it: `cli`, `watch`, or `operator:<id>` / `admin:<id>` for an editor save. */
  author: string;
  message: string;
  /** The version this one was saved over (the latest of its tree then); `null` for the first. */
  parentId: string | null;
  /** What changed from the parent, one line per change (`versionDiff`); empty for the first. */
  diff: string;
}

/** A publish's routing figures, kept with it: the next publish compares each node's recall to them. */
export interface RoutingFigures {
  /** In-scope accuracy of the routing eval. */
  accuracy: number;
  /** Out-of-scope recall; `null` when the utterances had none out of scope. */
  outOfScopeRecall: number | null;
  /** Recall per node name. */
  nodeRecall: Record<string, number>;
}

/** What an environment asks of a version before it is published there. `null`: no such check. */
export interface PublishGate {
  /** Lowest in-scope routing accuracy (0–1). */
  minAccuracy: number | null;
  /** Lowest out-of-scope recall (0–1). */
  minOosRecall: number | null;
  /** How far (0–1) a node's recall may fall below its figure at the last publish. */
  maxRecallDrop: number | null;
}

/** A publish or a rollback: an environment moved to a version. */
export interface EnvironmentChange {
  environment: string;
  versionId: string;
  action: 'publish' | 'rollback';
  author: string;
  message: string;
  at: Date;
  /** The routing figures the gate measured; `null` when the tree has no routing eval. */
  figures: RoutingFigures | null;
}

/** A named environment of a tree (draft, staging, production…) and the version it serves. */
export interface TreeEnvironment {
  tree: string;
  name: string;
  /** The version served; `null` before the first publish. */
  versionId: string | null;
  gate: PublishGate;
  /** The experiment splitting its new conversations between versions; `null` when none runs. */
  experiment: EnvironmentExperiment | null;
}

/** An experiment of an environment: its name (the split's salt) and the versions with their percents. */
export interface EnvironmentExperiment {
  name: string;
  variants: { versionId: string; percent: number }[];
  startedAt: Date;
}

/** The gate of an environment nobody configured: no threshold. */
export const NO_GATE: PublishGate = { minAccuracy: null, minOosRecall: null, maxRecallDrop: null };

/**
 * Where a server keeps a tree's versions and environments, beside its sessions. The in-memory store
 * is the reference; SQLite (`openSqlite(...).versionStore`) and PostgreSQL (`PostgresVersionStore`)
 * keep them durably. All pass `describeVersionStore` (`@treeagent/core/conformance`).
 */
export interface VersionStore {
  /**
   * Records a version unless one with the same id is stored (the same content): returns the stored
   * version, and whether this call created it.
   */
  addVersion(version: TreeVersion): Promise<{ version: TreeVersion; created: boolean }>;
  getVersion(tree: string, id: string): Promise<TreeVersion | null>;
  /** The tree's versions, newest first. */
  listVersions(tree: string): Promise<TreeVersion[]>;
  /** An environment that was published to or given a gate; `null` otherwise. */
  getEnvironment(tree: string, name: string): Promise<TreeEnvironment | null>;
  /** The tree's environments that were published to or given a gate, by name. */
  listEnvironments(tree: string): Promise<TreeEnvironment[]>;
  /** Starts (or with `null` ends) an environment's experiment (creating the environment when missing). */
  setExperiment(tree: string, name: string, experiment: EnvironmentExperiment | null): Promise<void>;
  /** Sets an environment's gate (creating the environment, with no version, when missing). */
  setGate(tree: string, name: string, gate: PublishGate): Promise<void>;
  /**
   * In one write: points the environment at `change.versionId` and appends `change` to its history.
   * Rejects (`INVALID_INPUT`) when the tree has no such version.
   */
  moveEnvironment(tree: string, change: EnvironmentChange): Promise<void>;
  /** An environment's publishes and rollbacks, oldest first. */
  history(tree: string, environment: string): Promise<EnvironmentChange[]>;
  /**
   * Gives a session the version it runs on, unless it has one: the first call wins, so a session
   * keeps the version it started on across publishes and restarts. Resolves to the session's version.
   */
  pinSession(tree: string, sessionId: string, versionId: string): Promise<string>;
  /** The version a session runs on; `null` before its first turn. */
  sessionVersion(tree: string, sessionId: string): Promise<string | null>;
  /**
   * Forgets the version of each of these sessions, in every tree: called when the sessions are
   * deleted (expired, or one user's data on request, docs/privacy.md), so nothing of them stays.
   */
  forgetSessions(sessionIds: readonly string[]): Promise<void>;
  /**
   * Optional, for a store several processes share: calls `listener` soon after any process moves an
   * environment (PostgreSQL: `LISTEN`/`NOTIFY`). Resolves to the function that stops listening.
   * Without it, servers poll `getEnvironment`.
   */
  onEnvironmentMoved?(listener: (tree: string, environment: string) => void): Promise<() => Promise<void>>;
}
