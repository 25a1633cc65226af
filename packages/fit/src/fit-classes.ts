import { createHash } from 'node:crypto';
import { type Tree, TreeAgentError } from '@treeagent/core';
import type { FitClasses, FitSettings } from './fit-settings.js';

export interface FitClass {
  nodeId: number;
  name: string | undefined;
  chunks: number;
}

/** The class node of each chunk of the tree. */
export function chunkClasses(tree: Tree, classes: FitClasses = 'nodes'): number[] {
  return tree.chunks.map((chunk) => {
    if (classes === 'nodes') return chunk.nodeId;
    let node = tree.node(chunk.nodeId);
    while (node.depth > classes.depth && node.parentId !== null) node = tree.node(node.parentId);
    return node.id;
  });
}

/**
 * What a fit depends on in a tree: the exploration chunks' texts, in order, and how they group into
 * the fit's classes (by first appearance, not by id or name). Thresholds, names, messages, callbacks
 * and retrieval-only chunks are not part of it: changing them keeps the fit.
 */
export function fitKey(tree: Tree, classes: FitClasses = 'nodes'): string {
  const labels = chunkClasses(tree, classes);
  const order = new Map<number, number>();
  const hash = createHash('sha256');
  tree.chunks.forEach((chunk, index) => {
    const label = labels[index]!;
    if (!order.has(label)) order.set(label, order.size);
    hash.update(`${order.get(label)}\u0000${chunk.text}\u0001`);
  });
  return hash.digest('hex').slice(0, 32);
}

/** The chunks a fit trains on: those of the classes with enough chunks, with their class index. */
export interface TrainingSet {
  /** Class node ids, in the order of the class indices. */
  classes: number[];
  /** Classes with fewer than `minChunksPerClass` chunks, left out of the fit. */
  excluded: number[];
  /** Texts of the training chunks. */
  texts: string[];
  /** Class index of each training chunk. */
  labels: number[];
  /** The class as a fit reports it (node, name, chunks). */
  describe(nodeId: number): FitClass;
}

/** Labels the tree's chunks and keeps those of the classes with `minChunksPerClass` chunks or more (at least 2 classes). */
export function trainingSet(tree: Tree, settings: FitSettings): TrainingSet {
  const labels = chunkClasses(tree, settings.classes);
  const counts = new Map<number, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  const classes = [...counts.keys()].filter((id) => counts.get(id)! >= settings.minChunksPerClass);
  const excluded = [...counts.keys()].filter((id) => counts.get(id)! < settings.minChunksPerClass);
  if (classes.length < 2)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `fitProjection needs at least 2 classes with ${settings.minChunksPerClass}+ chunks; the tree "${tree.name}" has ${classes.length}.`,
    );
  const classIndex = new Map(classes.map((id, index) => [id, index]));
  const used = labels.flatMap((label, index) => (classIndex.has(label) ? [index] : []));
  return {
    classes,
    excluded,
    texts: used.map((index) => tree.chunks[index]!.text),
    labels: used.map((index) => classIndex.get(labels[index]!)!),
    describe: (nodeId) => ({ nodeId, name: tree.node(nodeId).name, chunks: counts.get(nodeId)! }),
  };
}
