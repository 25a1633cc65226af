import { resolve } from 'node:path';
import { type Tree, TreeAgent } from '@treeagent/core';
import { AUTO_FIT_MIN_CHUNKS, defaultEmbedderFor, type Embedder } from '@treeagent/core/adapter';
import { evaluateRouting, type LabelledUtterance, type RoutingEvaluation } from '@treeagent/core/evaluation';
import { type FittedEmbedder, spaceFitter } from '@treeagent/fit';
import { openDataDirectory } from '../data-directory.js';
import { loadTree } from '../load-tree.js';
import { loadUtterances } from '../load-utterances.js';
import type { Output } from '../output.js';
import { progressBar } from '../progress.js';
import { escalationFitFile, fitsDirectory, shippedFitFile } from '../space.js';
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

/**
 * `treeagent fit <tree>`: makes ahead the fit the agent would make at load (`@treeagent/fit`'s
 * `spaceFitter`, the same base and settings), keeps it in the data directory's `fits/` — where `dev`,
 * `serve`, `chat` and `eval` look — and writes a copy beside the tree to ship with the project; with
 * `--utterances` it compares routing unfitted and fitted.
 */
export async function fitCommand(treePath: string, options: FitCommandOptions, out: Output): Promise<number> {
  const loaded = await loadTree(treePath, options.config ? { config: options.config } : {});
  const exported = loaded.agentOptions.embedder;
  // A tree module that already exports a fitted embedder is refitted on its base embedder.
  const base: Embedder =
    (exported && 'base' in exported && (exported as FittedEmbedder).base) ||
    exported ||
    defaultEmbedderFor(loaded.tree, loaded.agentOptions.language);
  const shipped = shippedFitFile(resolve(loaded.path));
  const file = resolve(options.out ?? shipped);
  const data = openDataDirectory(options.data);
  try {
    const cache = data.options.embeddingCache!;
    let bar: ReturnType<typeof progressBar> | undefined;
    const started = performance.now();
    const custom = {
      ...(options.depth === undefined ? {} : { classes: { depth: Number(options.depth) } }),
      ...(options.minChunks === undefined ? {} : { minChunksPerClass: Number(options.minChunks) }),
      ...(options.shrinkage === undefined ? {} : { shrinkage: Number(options.shrinkage) }),
    };
    const fitter = spaceFitter({
      cacheDirectory: fitsDirectory(options.data),
      ...(loaded.fitBase ? { base: loaded.fitBase } : {}),
      ...custom,
      ...(options.baseWeight === undefined ? {} : { baseWeight: Number(options.baseWeight) }),
      onProgress: ({ done, total }) => {
        // Only a fit that lasts more than a second shows a bar.
        if (!bar && performance.now() - started > 1000 && loaded.tree.chunks.length >= 50)
          bar = progressBar('fitting', total);
        bar?.update(done);
      },
    });
    const space = await fitter.fit({
      tree: loaded.tree,
      base,
      baseIsDefault: exported === undefined,
      embeddingCache: cache,
      signal: new AbortController().signal,
    });
    bar?.stop();
    const fitted = space.embedder as FittedEmbedder;
    fitted.save(file);
    const { projection } = fitted;
    out.log(
      `fitted ${projection.chunks} chunks in ${projection.classes.length} classes on ${fitted.base.id} → ${projection.outputDimensions} dimensions in ${(projection.milliseconds / 1000).toFixed(1)} s${projection.pca ? ` (PCA: ${projection.pca.method}, ${projection.pca.dimensions} dimensions${projection.pca.whole ? `, the first ${projection.pca.whole} of the base kept whole` : ''})` : ''}`,
    );
    if (space.baseReason) out.log(`base: ${space.baseReason}`);
    if (projection.excluded.length)
      out.log(
        `left out of the fit (fewer than ${projection.settings.minChunksPerClass} chunks; ${fitted.baseWeight > 0 ? `they fall back to the base space, kept at baseWeight ${fitted.baseWeight}` : 'no base space to fall back on with --base-weight 0'}): ${projection.excluded.map((entry) => entry.name ?? `node ${entry.nodeId}`).join(', ')}`,
      );
    out.log(`written ${file}`);
    if (space.escalation) {
      // A cascade (fitBase = 'cascade'): its second fit ships beside the first.
      const second = escalationFitFile(file);
      (space.escalation.embedder as FittedEmbedder).save(second);
      out.log(
        `written ${second} (the cascade's second space, for unsure messages: ${space.escalation.baseReason ?? space.escalation.baseId})`,
      );
    }
    if (space.file) out.log(`kept in the data directory: ${space.file}`);
    const exploring = loaded.tree.chunks.filter((chunk) => !chunk.forRag).length;
    const unused = loaded.agentOptions.fit !== true && exploring < AUTO_FIT_MIN_CHUNKS;
    if (unused)
      // fit: 'auto' does not fit a tree this small, shipped fit or not: say so instead of promising it.
      out.log(
        `not used as it is: the tree has ${exploring} exploration chunks, fewer than ${AUTO_FIT_MIN_CHUNKS}, so dev, serve, chat and eval route it unfitted (fit: 'auto'), which routed small trees better than a fit in bench/routing/fit-threshold.ts (docs/routing.md, "Small trees"). Add chunks until the tree has ${AUTO_FIT_MIN_CHUNKS}, or export const fit = true from the tree module (a JSON tree's callbacks module) to route in this fit anyway.`,
      );
    else
      out.log(
        Object.keys(custom).length
          ? 'made with settings other than the defaults (--depth, --min-chunks, --shrinkage): `treeagent dev`, `serve`, `chat` and `eval` fit with the defaults and will not use it.'
          : `dev, serve, chat and eval route in this fitted space from the first message while the tree's chunks stay as they are (${file === shipped ? `ship ${file} with the project` : `to ship it with the project, write it as ${shipped}`}); a changed tree is fitted again at load.`,
      );
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
        '\nThresholds in the fitted space differ: `treeagent eval` suggests a similarityThreshold per node in the space it routes in (this fit, when it is used: see above).',
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
    "Fit the embedding space to the tree ahead, as the agent would at load (same base and settings): kept in the data directory's fits/ and written next to the tree (<tree>.fit.json, to ship with the project), where dev, serve, chat and eval find it and route fitted from the first message; with --utterances, routing unfitted vs fitted.",
  arguments: [{ name: '<tree>', description: 'tree file (.ts, .js or .json)' }],
  options: [
    {
      flags: '--utterances <file>',
      description: 'held-out labelled utterances to compare unfitted and fitted routing',
    },
    {
      flags: '--out <file>',
      description:
        'where to write the shipped copy (default: <tree>.fit.json next to the tree, where the commands look)',
    },
    { flags: '--config <file>', description: 'model configuration' },
    {
      flags: '--data <directory>',
      description: 'data directory (embedding cache, fits/)',
      default: '.treeagent',
    },
    {
      flags: '--depth <n>',
      description: 'classes are the nodes at this depth (default: the node holding each chunk)',
    },
    {
      flags: '--min-chunks <n>',
      description: 'classes with fewer chunks are left out of the fit (default 2)',
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
