import type { CallbackDiagnostic, CallbacksModuleState, CallbacksTypeEnvironment } from '../api-types.js';

/**
 * The tree's callbacks module as the editor's Callbacks panel reads, checks and saves it (option
 * `callbacks` of a `TreeEditorSource`). It is always the module the tree file on disk names, never a
 * path from a request. The CLI's `treeagent dev` provides one that type-checks with the project's
 * TypeScript (`fileCallbacksModule`).
 */
export interface CallbacksModuleSource {
  /** The module's text on disk and its version. */
  read(): Promise<CallbacksModuleState>;
  /** The type errors of `text` as the module (the project's compiler options and types); empty: none. */
  check(text: string): Promise<CallbackDiagnostic[]>;
  /**
   * Writes `text` atomically if the module is still at `baseVersion` (else throws `TreeEditConflict`),
   * then lets the served agent pick it up; resolves to the new version. The caller checks it first.
   */
  write(text: string, baseVersion: string): Promise<string>;
  /** What a browser needs to type-check the module as `check` does. */
  environment(): Promise<CallbacksTypeEnvironment>;
  /** The source of the TypeScript compiler `check` uses (its `lib/typescript.js`), for the browser's worker. */
  compilerScript(): Promise<string>;
}
