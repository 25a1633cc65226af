import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { defineTree, type NodeDefinition, type Tree } from '../../packages/core/src/index.js';

/** Where the CLINC150 development splits live (shared with the project, read-only; `CLINC150_DIR` overrides). */
export const CLINC150_DIR =
  process.env.CLINC150_DIR ?? fileURLToPath(new URL('../../../shared/datasets/clinc150/', import.meta.url));

interface Clinc150 {
  domains: Record<string, string[]>;
  train: [string, string][];
  val: [string, string][];
  oosVal: [string, string][];
  oosTrain: [string, string][];
}

export function loadClinc150(directory = CLINC150_DIR): Clinc150 {
  const dev = JSON.parse(readFileSync(`${directory}/dev.json`, 'utf8'));
  const domains = JSON.parse(readFileSync(`${directory}/domains.json`, 'utf8'));
  return { domains, train: dev.train, val: dev.val, oosVal: dev.oos_val, oosTrain: dev.oos_train };
}

export interface ClincTreeOptions {
  /** Only these domains (default: all 10). */
  domains?: string[];
  /** At most this many training utterances per intent (default: all 100). */
  perIntent?: number;
  /**
   * Threshold of every routing node (the root's `defaultSimilarityThreshold`): default -1, always
   * descend (the operating point sets the real one); `null` sets none, so the agent calibrates them.
   */
  threshold?: number | null;
  /** Utterances to build the tree from (default: `train`). */
  train?: [string, string][];
}

/**
 * The CLINC150 tree: agent → 10 domain nodes → 150 intent leaves, the training utterances as the
 * intents' chunks. Routing a validation utterance is the real explore step.
 */
export function clincTree(data: Clinc150, options: ClincTreeOptions = {}): Tree {
  const threshold = options.threshold === undefined ? -1 : options.threshold;
  const train = options.train ?? data.train;
  const domains = options.domains ?? Object.keys(data.domains);
  const nodes: NodeDefinition[] = [
    threshold === null
      ? { id: 1, type: 'root' }
      : { id: 1, type: 'root', defaultSimilarityThreshold: threshold },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'clinc150' },
  ];
  let id = 10;
  for (const domain of domains) {
    const domainId = id++;
    nodes.push({ id: domainId, type: 'empty', parent: 2, name: domain });
    for (const intent of data.domains[domain]!) {
      const utterances = train.filter(([, label]) => label === intent).slice(0, options.perIntent ?? 100);
      // An intent answers (an emit node), so that `send` and `evaluateRouting` end on it alike.
      nodes.push({
        id: id++,
        type: 'emit',
        parent: domainId,
        name: intent,
        chunks: utterances.map(([text]) => text),
        emit: { message: { type: 'static', content: intent } },
      });
    }
  }
  return defineTree({ name: `clinc150-${domains.length}`, nodes });
}

/** The validation utterances of the chosen domains, and the out-of-scope ones labelled `none`. */
export function clincTestSet(data: Clinc150, domains = Object.keys(data.domains)): LabelledUtterance[] {
  const intents = new Set(domains.flatMap((domain) => data.domains[domain]!));
  return [
    ...data.val.filter(([, label]) => intents.has(label)),
    ...data.oosVal.map(([text]) => [text, 'none'] as const),
  ];
}

/**
 * Fold `fold` of a `folds`-fold split of `train`, as the cross-validations of these benchmarks make
 * it: the i-th utterance of each intent is held out in fold i mod `folds`; the out-of-scope messages
 * of `oos_train` (labelled `none`) join every fold's held-out set.
 */
export function clincFold(
  data: Clinc150,
  folds: number,
  fold: number,
): { train: [string, string][]; test: LabelledUtterance[] } {
  const seen = new Map<string, number>();
  const train: [string, string][] = [];
  const heldOut: LabelledUtterance[] = [];
  for (const item of data.train) {
    const index = seen.get(item[1]) ?? 0;
    seen.set(item[1], index + 1);
    if (index % folds === fold) heldOut.push(item);
    else train.push(item);
  }
  return { train, test: [...heldOut, ...data.oosTrain.map(([text]) => [text, 'none'] as LabelledUtterance)] };
}
