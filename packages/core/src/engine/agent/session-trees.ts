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
  treeFor(sessionId: string, session?: SessionUnit): Promise<Tree | null>;
  /**
   * Optional: the sessions were deleted (expired, or one user's data on request): forget the
   * versions they were given, so nothing of them stays.
   */
  forget?(sessionIds: readonly string[]): Promise<void>;
}

/** What the agent knows of a session when it asks for its tree. */
export interface SessionUnit {
  /**
   * The user the session belongs to (`SendOptions.userId`: the application's user id, a messaging
   * channel's user), or `null`: an experiment splits by it, so a user gets the same variant in
   * every session, else by the session id.
   */
  userId: string | null;
}

/** How many trees other than the agent's own stay loaded at once by default (`maxLoadedTrees`). */
export const DEFAULT_MAX_LOADED_TREES = 4;

/**
 * How many bytes the trees other than the agent's own may hold together by default
 * (`maxLoadedTreeBytes`, estimated by `runtimeBytes`): 256 MiB.
 */
export const DEFAULT_MAX_LOADED_TREE_BYTES = 256 * 1024 * 1024;
