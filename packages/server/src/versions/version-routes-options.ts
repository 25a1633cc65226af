import type { PublishGate, RoutingFigures, TreeVersion, VersionStore } from '@treeagent/core/adapter';

/** What the publish gate is asked to check: the version, the environment's gate and its last figures. */
export interface PublishGateRequest {
  version: TreeVersion;
  environment: string;
  gate: PublishGate;
  /** The routing figures of the publish in force (a node's recall may not fall far below them). */
  previous: RoutingFigures | null;
}

/** What the gate found: every failure as a line (empty: the publish goes ahead) and the routing figures. */
export interface PublishGateOutcome {
  failures: string[];
  figures: RoutingFigures | null;
}

/**
 * The versions routes (`/api/v1/versions`, admin only; docs/versions.md): the store of the tree's
 * versions and environments, and the gate of a publish — `treeagent dev` passes the CLI's gate
 * (the conversation tests and the routing eval), the same as `treeagent publish`.
 */
export interface VersionRoutesOptions {
  store: VersionStore;
  /** The tree's name in the store. */
  tree: string;
  /** The environments a publish may name. Default: draft, staging, production. */
  environments?: readonly string[];
  /** Runs the environment's gate on a version; a publish goes ahead only without failures. */
  gate(request: PublishGateRequest): Promise<PublishGateOutcome>;
  /**
   * The analytics tree version (`Tree.contentHash`, what the turn facts record) of a stored
   * version: the experiment's figures per variant are read by it.
   */
  treeVersionOf(version: TreeVersion): Promise<string>;
  /**
   * Why a stored version cannot be loaded now (its callbacks module changed since it was saved…),
   * or `null` when it loads: a rollback to a version that does not load is refused and moves
   * nothing. Without it, a rollback trusts the version it returns to.
   */
  unloadable?(version: TreeVersion): Promise<string | null>;
}
