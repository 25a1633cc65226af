import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { evaluateRouting, type LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { FileEmbeddingCache, InMemoryEmbeddingCache, TreeAgent } from '../../packages/core/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { clincTree, loadClinc150 } from './clinc150.js';

/**
 * Do `treeagent eval`'s suggestions generalise? The tree is built from CLINC150 `train`; the agent
 * is what a CLI user gets (`new TreeAgent({ tree, spaceFitter: spaceFitter() })`: fitted at load,
 * thresholds calibrated in the fitted space; `--unfitted` for the hashed space as before the fit at
 * load); the suggestions come from one
 * half of `val` + `oos_val` (every other utterance) and are applied to the other half, routed as
 * `send` would. npx tsx bench/routing/eval-suggestions.ts [--unfitted] [--warm-cache]
 */
const unfitted = process.argv.includes('--unfitted');
const data = loadClinc150();
const tree = clincTree(data, { threshold: null });
// `--warm-cache`: the chunks' vectors from bench/.cache/embeddings (embed-use-cache.ts), so the USE-lite
// base does not embed 15,000 chunks again; the figures do not depend on it.
const cache = process.argv.includes('--warm-cache')
  ? new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)))
  : new InMemoryEmbeddingCache();
const agent = new TreeAgent({
  tree,
  embeddingCache: cache,
  spaceFitter: spaceFitter(),
  ...(unfitted ? { fit: false } : {}),
});
const space = await agent.whenFitted();
const all: LabelledUtterance[] = [...data.val, ...data.oosVal.map(([text]) => [text, 'none'] as const)];
const first = all.filter((_, index) => index % 2 === 0);
const second = all.filter((_, index) => index % 2 === 1);
const suggestion = await evaluateRouting(tree, agent, first);
if (!suggestion.operatingPoint) throw new Error('no operating point: too few in-scope utterances');
const operatingPoint = suggestion.operatingPoint;
const heldOut = await evaluateRouting(tree, agent, second);
const applied = async (thresholds: number | ReadonlyMap<number, number>) => {
  let right = 0;
  let kept = 0;
  let declined = 0;
  let inScope = 0;
  for (const [text, expected] of second) {
    const routed = await agent.route(text, { thresholds });
    const predicted = routed.noMatch ? 'none' : routed.node.name;
    if (expected === 'none') declined += predicted === 'none' || !predicted ? 1 : 0;
    else {
      inScope++;
      if (predicted !== 'none') kept++;
      if (predicted === expected) right++;
    }
  }
  const outOfScope = second.length - inScope;
  return {
    inScopeRight: right / inScope,
    inScopeKept: kept / inScope,
    outOfScopeRecall: declined / outOfScope,
  };
};
const perNode = new Map(
  suggestion.thresholds.flatMap((s) => (s.suggested === null ? [] : [[s.nodeId, s.suggested] as const])),
);
const results = {
  date: new Date().toISOString(),
  space,
  calibratedAsIs: {
    inScopeRight: heldOut.accuracy,
    inScopeKept: heldOut.inScopeKept,
    outOfScopeRecall: heldOut.outOfScopeRecall,
  },
  operatingPoint: {
    threshold: operatingPoint.threshold,
    onSuggestionHalf: operatingPoint,
    onHeldOutHalf: await applied(operatingPoint.threshold),
  },
  perNode: {
    perNodeKeep: suggestion.perNodeKeep,
    suggestions: Object.fromEntries(perNode),
    onSuggestionHalf: suggestion.suggestedOutcome,
    onHeldOutHalf: await applied(perNode),
  },
};
console.log(JSON.stringify(results, null, 2));
writeFileSync(
  new URL(
    unfitted ? './eval-suggestions-unfitted-results.json' : './eval-suggestions-results.json',
    import.meta.url,
  ),
  `${JSON.stringify(results, null, 2)}\n`,
);
