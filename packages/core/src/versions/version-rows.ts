import type {
  EnvironmentChange,
  EnvironmentExperiment,
  PublishGate,
  TreeEnvironment,
  TreeVersion,
} from './version-store.js';

/** JSON as a driver reads it back: text (SQLite) or already parsed (PostgreSQL's `jsonb`). */
type StoredJson<T> = T | string;

const parsed = <T>(value: StoredJson<T>): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

/**
 * The columns of a SQL table of tree versions (SQLite, PostgreSQL), in the order
 * `treeVersionValues` returns them.
 */
export const TREE_VERSION_COLUMNS = [
  'tree',
  'id',
  'hash',
  'document_hash',
  'callbacks_hash',
  'document',
  'created_at',
  'author',
  'message',
  'parent_id',
  'diff',
] as const;

/** A row of `TREE_VERSION_COLUMNS` as a driver reads it back: `created_at` as ISO text (SQLite) or a `Date`. */
export interface TreeVersionRow {
  tree: string;
  id: string;
  hash: string;
  document_hash: string;
  callbacks_hash: string | null;
  document: string;
  created_at: string | Date;
  author: string;
  message: string;
  parent_id: string | null;
  diff: string;
}

/** A tree version as the values of `TREE_VERSION_COLUMNS` (its time as ISO text). */
export function treeVersionValues(version: TreeVersion): unknown[] {
  return [
    version.tree,
    version.id,
    version.hash,
    version.documentHash,
    version.callbacksHash,
    version.document,
    version.createdAt.toISOString(),
    version.author,
    version.message,
    version.parentId,
    version.diff,
  ];
}

/** The tree version a row of `TREE_VERSION_COLUMNS` holds. */
export function treeVersionOfRow(row: TreeVersionRow): TreeVersion {
  return {
    tree: row.tree,
    id: row.id,
    hash: row.hash,
    documentHash: row.document_hash,
    callbacksHash: row.callbacks_hash,
    document: row.document,
    createdAt: new Date(row.created_at),
    author: row.author,
    message: row.message,
    parentId: row.parent_id,
    diff: row.diff,
  };
}

/** A row of a tree environments table as a driver reads it back: its gate and experiment as JSON. */
export interface TreeEnvironmentRow {
  tree: string;
  name: string;
  version_id: string | null;
  gate: StoredJson<PublishGate>;
  experiment: StoredJson<Omit<EnvironmentExperiment, 'startedAt'> & { startedAt: string }> | null;
}

/** The environment a row of a tree environments table holds. */
export function treeEnvironmentOfRow(row: TreeEnvironmentRow): TreeEnvironment {
  const experiment = row.experiment === null ? null : parsed(row.experiment);
  return {
    tree: row.tree,
    name: row.name,
    versionId: row.version_id,
    gate: parsed(row.gate),
    experiment: experiment ? { ...experiment, startedAt: new Date(experiment.startedAt) } : null,
  };
}

/**
 * The columns of a SQL table of environment changes (the publish history), in the order
 * `environmentChangeValues` returns them.
 */
export const ENVIRONMENT_CHANGE_COLUMNS = [
  'tree',
  'environment',
  'version_id',
  'action',
  'author',
  'message',
  'at',
  'figures',
] as const;

/** A row of the publish history as a driver reads it back: `at` as ISO text or a `Date`, `figures` as JSON. */
export interface EnvironmentChangeRow {
  environment: string;
  version_id: string;
  action: EnvironmentChange['action'];
  author: string;
  message: string;
  at: string | Date;
  figures: StoredJson<NonNullable<EnvironmentChange['figures']>> | null;
}

/** A change of `tree`'s environment as the values of `ENVIRONMENT_CHANGE_COLUMNS` (figures as JSON text). */
export function environmentChangeValues(tree: string, change: EnvironmentChange): unknown[] {
  return [
    tree,
    change.environment,
    change.versionId,
    change.action,
    change.author,
    change.message,
    change.at.toISOString(),
    change.figures ? JSON.stringify(change.figures) : null,
  ];
}

/** The environment change a row of the publish history holds. */
export function environmentChangeOfRow(row: EnvironmentChangeRow): EnvironmentChange {
  return {
    environment: row.environment,
    versionId: row.version_id,
    action: row.action,
    author: row.author,
    message: row.message,
    at: new Date(row.at),
    figures: row.figures ? parsed(row.figures) : null,
  };
}
