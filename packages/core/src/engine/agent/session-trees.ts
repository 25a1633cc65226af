import type { Tree } from '../../tree/tree.js';

/**
 * Which tree each session runs on, when conversations keep the version they started on
 * (`TreeAgentOptions.sessionTrees`, docs/versions.md): a publish changes the tree of new sessions
 * (`TreeAgent.setTree`) while a session begun before it continues on its own.
 */
export interface SessionTrees {
  /**
   * The tree `sessionId`'s next turn runs on, or `null` for the agent's tree. Called before every
   * turn; the first call for a session is where it is given its version.
   */
  treeFor(sessionId: string): Promise<Tree | null>;
}

/** How many trees other than the agent's own stay loaded at once by default (`maxLoadedTrees`). */
export const DEFAULT_MAX_LOADED_TREES = 4;
