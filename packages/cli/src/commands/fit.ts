import { extname } from 'node:path';
import {
  type Embedder,
  evaluateRouting,
  HashedEmbedder,
  type LabelledUtterance,
  type RoutingEvaluation,
  type Tree,
  TreeAgent,
} from '@treeagent/core';
import { FittedEmbedder } from '@treeagent/fit';
import { openDataDirectory } from '../data-directory.js';
import { loadTree } from '../load-tree.js';
import { loadUtterances } from '../load-utterances.js';
import type { Output } from '../output.js';
import { progressBar } from '../progress.js';
import { defineCommand } from './command-definition.js';

export interface FitCommandOptions {
  config?: string;
  data?: string;
  utterances?: string;
  out?: string;
  depth?: string;
  minChunks?: string;
  shrinkage?: string;
  baseWeight?: string;
  keep?: string;
}

/** Where `treeagent fit` writes the fit by default: `tree.ts` → `tree.fit.json`. */
export function defaultFitFile(treePath: string): string {
  const extension = extname(treePath);
  return `${extension ? treePath.slice(0, -extension.length) : treePath}.fit.json`;
}

/**
 * `treeagent fit <tree>`: fits the embedding space to the tree's chunks (`@treeagent/fit`), writes the
 * fit next to the tree, and with `--utterances` compares routing unfitted and fitted.
 */
export async function fitCommand(treePath: string, options: FitCommandOptions, out: Output): Promise<number> {
  const loaded = await loadTree(treePath, options.config ? { config: options.config } : {});
  const exported = loaded.agentOptions.embedder;
  // A tree module that already exports a fitted embedder is refitted on its base embedder.
  const base: Embedder =
    (exported && 'base' in exported && (exported as FittedEmbedder).base) || exported || new HashedEmbedder();
  const file = options.out ?? defaultFitFile(loaded.path);
  const data = openDataDirectory(options.data);
  try {
    const cache = data.options.embeddingCache!;
    let bar: ReturnType<typeof progressBar> | undefined;
    const started = performance.now();
    const fitted = await FittedEmbedder.fit(loaded.tree, base, {
      embeddingCache: cache,
      ...(options.depth === undefined ? {} : { classes: { depth: Number(options.depth) } }),
      ...(options.minChunks === undefined ? {} : { minChunksPerClass: Number(options.minChunks) }),
      ...(options.shrinkage === undefined ? {} : { shrinkage: Number(options.shrinkage) }),
      ...(options.baseWeight === undefined ? {} : { baseWeight: Number(options.baseWeight) }),
      onProgress: ({ done, total }) => {
        // Only a fit that lasts more than a second shows a bar.
        if (!bar && performance.now() - started > 1000 && loaded.tree.chunks.length >= 50)
          bar = progressBar('fitting', total);
        bar?.update(done);
      },
    });
    bar?.stop();
    fitted.save(file);
    const { projection } = fitted;
    out.log(
      `fitted ${projection.chunks} chunks in ${projection.classes.length} classes on ${base.id} → ${projection.outputDimensions} dimensions in ${(projection.milliseconds / 1000).toFixed(1)} s${projection.pca ? ` (PCA: ${projection.pca.method}, ${projection.pca.dimensions} dimensions)` : ''}`,
    );
    if (projection.excluded.length)
      out.log(
        `left out of the fit (fewer than ${projection.settings.minChunksPerClass} chunks; ${fitted.baseWeight > 0 ? `they fall back to the base space, kept at baseWeight ${fitted.baseWeight}` : 'no base space to fall back on with --base-weight 0'}): ${projection.excluded.map((entry) => entry.name ?? `node ${entry.nodeId}`).join(', ')}`,
      );
    out.log(`written ${file}`);
    out.log(`embedder id: ${fitted.id}`);
    if (options.utterances) {
      const utterances = loadUtterances(options.utterances);
      const keep = options.keep === undefined ? 0.9 : Number(options.keep);
      const before = await evaluate(loaded.tree, base, cache, utterances, keep);
      const after = await evaluate(loaded.tree, fitted, cache, utterances, keep);
      out.log('');
      out.log(summary('unfitted', before));
      out.log(summary('fitted  ', after));
      out.log(
        '\nThresholds in the fitted space differ: run `treeagent eval` with the fitted embedder for the suggested similarityThreshold per node.',
      );
    }
    return 0;
  } finally {
    await data.close();
  }
}

async function evaluate(
  tree: Tree,
  embedder: Embedder,
  embeddingCache: NonNullable<ReturnType<typeof openDataDirectory>['options']['embeddingCache']>,
  utterances: LabelledUtterance[],
  keep: number,
): Promise<RoutingEvaluation> {
  const agent = new TreeAgent({ tree, embedder, embeddingCache });
  await agent.ready();
  return evaluateRouting(tree, agent, utterances, { keep });
}

function summary(label: string, report: RoutingEvaluation): string {
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const point = report.operatingPoint;
  const head = `${label} accuracy ${percent(report.accuracy)}${report.outOfScope ? `, out-of-scope recall ${percent(report.outOfScopeRecall)}` : ''}`;
  return point === null
    ? `${head}; no operating point (too few in-scope utterances)`
    : `${head}; at the operating point (threshold ${point.threshold.toFixed(3)}, ${percent(point.keep)} kept): in-scope right ${percent(point.inScopeAccuracy)}, out-of-scope recall ${percent(point.outOfScopeRecall)}`;
}

/** `treeagent fit`: its help, arguments and options (the command table, `command-table.ts`). */
export const fitDefinition = defineCommand({
  name: 'fit',
  description:
    "Fit the embedding space to the tree: a projection learnt from the tree's own chunks (PCA, then LDA over the nodes holding them), written next to the tree; with --utterances, routing unfitted vs fitted.",
  arguments: [{ name: '<tree>', description: 'tree file (.ts, .js or .json)' }],
  options: [
    {
      flags: '--utterances <file>',
      description: 'held-out labelled utterances to compare unfitted and fitted routing',
    },
    {
      flags: '--out <file>',
      description: 'where to write the fit (default: <tree>.fit.json next to the tree)',
    },
    { flags: '--config <file>', description: 'model configuration' },
    { flags: '--data <directory>', description: 'data directory (embedding cache)', default: '.treeagent' },
    {
      flags: '--depth <n>',
      description: 'classes are the nodes at this depth (default: the node holding each chunk)',
    },
    {
      flags: '--min-chunks <n>',
      description: 'classes with fewer chunks are left out of the fit',
      default: '2',
    },
    { flags: '--shrinkage <value>', description: 'shrinkage of the within-class scatter, 0…1' },
    {
      flags: '--base-weight <value>',
      description:
        'weight of the base space kept beside the fitted one (nodes left out of the fit fall back to it); 0 = fitted space only',
    },
    {
      flags: '--keep <share>',
      description: 'share of in-scope utterances the operating point keeps',
      default: '0.9',
    },
  ],
  run: ([tree], options, out) => fitCommand(tree, options, out),
});
