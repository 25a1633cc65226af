import type { Tree, TreeAgentOptions } from '@treeagent/core';
import type { LanguageModel } from '@treeagent/core/adapter';
import type { TreeDocument } from '@treeagent/core/document';
import type { LabelledUtterance } from '@treeagent/core/evaluation';
import type { CallbacksModuleSource } from './callbacks-module-source.js';

/** A tree file as the editor reads it. */
export interface TreeEditorFile {
  /** Absolute path of the file. */
  path: string;
  /** Version of the text on disk (a hash of it): a save names the version it started from. */
  version: string;
  document: TreeDocument;
  /** Whether the file can be written (a tree defined in code cannot: it is shown, not saved). */
  editable: boolean;
  readOnlyReason: string | null;
}

/**
 * Where the tree editor's tree lives (option `editor` of `createApp`): reading the file, building a
 * draft with the module's callbacks, writing it back when it has not changed underneath. The CLI's
 * `treeagent dev` provides one for a JSON tree file (`fileTreeEditor`).
 */
export interface TreeEditorSource {
  read(): Promise<TreeEditorFile>;
  /** The version of the file on disk now (cheap: what a page that cannot follow `GET /events` polls). */
  version(): Promise<string>;
  /**
   * Calls `listener` with the version on disk whenever the file changes (another editor, `git pull`,
   * a hand edit), until the returned function is called. Optional: without it the server polls
   * `version()` every second while a page follows the changes (`GET /api/v1/editor/events`).
   */
  watch?(listener: (version: string) => void): () => void;
  /** The named function exports of the callback module, read fresh. */
  callbackNames(): Promise<string[]>;
  /** The tree a draft document describes, with the module's callbacks; throws `TreeValidationError`. */
  build(document: TreeDocument): Promise<Tree>;
  /**
   * Compare-and-swap: writes the document (stable layout) if the file is still at `baseVersion`
   * (any version with `force`), and resolves to the new version. The comparison and the write are one
   * step (two saves cannot interleave: the second sees the first's version and is refused), and the
   * write is atomic (a reader sees the old text or the new, never part of it). Throws
   * `TreeEditConflict` when the file changed.
   */
  write(
    document: TreeDocument,
    baseVersion: string,
    /** `author`: who saves (`admin:<id>`, `operator:<id>`, `editor`), for the version a source records. */
    options?: { force?: boolean; author?: string },
  ): Promise<string>;
  /** The callbacks module, read, type-checked and saved by the editor's Callbacks panel (absent: no panel). */
  callbacks?: CallbacksModuleSource;
  /** Labelled utterances the threshold suggestions are computed from (empty: none). */
  utterances(): Promise<LabelledUtterance[]>;
  /**
   * Options of the agents that route drafts: the served agent's `embedder` and `embeddingCache`, and
   * a `spaceFitter` for drafts to be fitted as the served tree is (without one they stay unfitted).
   */
  /**
   * The language model "suggest chunks" asks for paraphrases (`treeagent dev` passes the configured
   * default model); without one, suggestions come from the unmatched messages.
   */
  suggestionModel?: LanguageModel | undefined;
  agentOptions: Pick<
    TreeAgentOptions,
    'embedder' | 'embeddingCache' | 'calibrateThresholds' | 'spaceFitter' | 'missingModels' | 'modelHelp'
  >;
}

/** Thrown by `TreeEditorSource.write` when the file on disk is no longer the version the edit started from. */
export class TreeEditConflict extends Error {
  readonly version: string;

  constructor(path: string, version: string) {
    super(
      `${path} changed on disk since the editor loaded it. Reload it to edit the new version, or save again with "force" to overwrite it.`,
    );
    this.name = 'TreeEditConflict';
    this.version = version;
  }

  static isInstance(error: unknown): error is TreeEditConflict {
    return (
      error instanceof Error &&
      error.name === 'TreeEditConflict' &&
      typeof (error as TreeEditConflict).version === 'string'
    );
  }
}
