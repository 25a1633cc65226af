import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { defineTree, type NodeDefinition, type Tree } from '../../packages/core/src/index.js';

/**
 * An Italian labelled set of our own (`italian-intents.json`): the customer service of a bike shop,
 * 4 domains × 4 intents, 12 chunks per intent and 10 held-out test utterances written separately
 * (other wording, register and typos), plus 40 out-of-scope messages. Never used to tune anything.
 */
interface ItalianIntents {
  domains: Record<string, Record<string, { chunks: string[]; test: string[] }>>;
  out_of_scope: string[];
}

export function loadItalianIntents(): ItalianIntents {
  return JSON.parse(
    readFileSync(fileURLToPath(new URL('./italian-intents.json', import.meta.url)), 'utf8'),
  ) as ItalianIntents;
}

/** agent → 4 domain nodes → 16 intent leaves (answering), the chunks as the intents' chunks; `threshold` `null`: none set (calibrated at load). */
export function italianIntentsTree(data: ItalianIntents, threshold: number | null = -1): Tree {
  const nodes: NodeDefinition[] = [
    threshold === null
      ? { id: 1, type: 'root' }
      : { id: 1, type: 'root', defaultSimilarityThreshold: threshold },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'negozio' },
  ];
  let id = 10;
  for (const [domain, intents] of Object.entries(data.domains)) {
    const domainId = id++;
    nodes.push({ id: domainId, type: 'empty', parent: 2, name: domain });
    for (const [intent, { chunks }] of Object.entries(intents))
      nodes.push({
        id: id++,
        type: 'emit',
        parent: domainId,
        name: intent,
        chunks,
        emit: { message: { type: 'static', content: intent } },
      });
  }
  return defineTree({ name: 'italian-intents', nodes });
}

/** The held-out test utterances, and the out-of-scope ones labelled `none`. */
export function italianIntentsTestSet(data: ItalianIntents): LabelledUtterance[] {
  return [
    ...Object.values(data.domains).flatMap((intents) =>
      Object.entries(intents).flatMap(([intent, { test }]) => test.map((text) => [text, intent] as const)),
    ),
    ...data.out_of_scope.map((text) => [text, 'none'] as const),
  ];
}
