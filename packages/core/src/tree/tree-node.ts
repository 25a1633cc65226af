import type { NodeType } from '../protocol/constants.js';
import type { ThresholdSource } from '../protocol/events.js';
import type { Chunk } from './chunk.js';
import type { InitCallback, NodeDefinition } from './node-definition.js';

/** Types of the nodes that remain in the effective tree once components are flattened. */
export type EffectiveNodeType = Exclude<NodeType, 'component' | 'head' | 'tail'>;

/** A node of the effective tree: components flattened, chunks resolved, properties defaulted. */
export interface TreeNode {
  readonly id: number;
  readonly type: EffectiveNodeType;
  readonly name: string | undefined;
  /** The node's definition, callbacks included. */
  readonly definition: NodeDefinition;
  /** Parent in the effective tree (`null` for the root). */
  readonly parentId: number | null;
  /** Children in the effective tree, in definition order. */
  readonly children: readonly number[];
  readonly depth: number;
  /** The node's own chunks, as defined: signposts and `forRag` ones. */
  readonly chunks: readonly Chunk[];
  /** The node's own `forRag` chunks: what its query step searches. */
  readonly ragChunks: readonly Chunk[];
  readonly links: Readonly<Record<string, number>>;
  readonly isBlocking: boolean;
  readonly isAnchor: boolean;
  readonly isMute: boolean;
  readonly similarityThreshold: number;
  /**
   * Where `similarityThreshold` comes from: set on the node, the root's `defaultSimilarityThreshold`,
   * the library default (`DEFAULT_SIMILARITY_THRESHOLD`), or calibrated from the tree's chunks when
   * the agent loads the tree (only nodes with no threshold set by hand are calibrated).
   */
  readonly thresholdSource: ThresholdSource;
  /** The agent this node belongs to (`null` for the root). */
  readonly agentId: number | null;
  /** Owner of the node's `self`: the id of its innermost component node, or the root's id. */
  readonly scopeId: number;
  /** Nearest ancestor with `isAnchor`, or the agent (the anchor of last resort). */
  readonly anchorId: number | null;
  /** Index in `Tree.chunks` (exploration's chunks) of the node's own first chunk. The subtree's chunks are `[chunkStart, chunkEnd)`. */
  readonly chunkStart: number;
  /** End of the node's own chunks; its descendants' chunks are `[ownChunkEnd, chunkEnd)`. */
  readonly ownChunkEnd: number;
  readonly chunkEnd: number;
}

/** A scope owning a `self` object: the root, or one component instance. */
export interface SelfScope {
  readonly id: number;
  readonly kind: 'root' | 'component';
  /** Node whose `init` builds the scope's `self` (the root, or the component's head). */
  readonly initNodeId: number;
  /** The `init` callback of that node, if any. */
  readonly init: InitCallback | undefined;
}
