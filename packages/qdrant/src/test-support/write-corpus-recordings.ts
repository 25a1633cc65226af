/**
 * Writes `recordings/corpus/*.json`: for each case of Qdrant's behaviour corpus (core's
 * `src/conformance/qdrant-corpus`, written from Qdrant's own integration tests), the HTTP exchanges
 * `QdrantVectorStore` has with Qdrant when the corpus runner (`describeQdrantCorpus`) runs the case.
 *
 * The answers come from the corpus — the ids Qdrant's tests assert — never from Tree Agent's filter
 * evaluator: scroll answers list those ids in order, query answers list them with cosine scores
 * computed as Qdrant computes them (float32, vectors normalised). The request bodies are the
 * filters of Qdrant's tests, verbatim. A case Tree Agent rejects (`FILTER`) has no request after the
 * upsert: the adapter refuses it before sending.
 *
 * Run after a change to the corpus: `npx tsx packages/qdrant/src/test-support/write-corpus-recordings.ts`
 * and review the diff. Tests never run this file.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { VectorRecord } from '@treeagent/core/adapter';
import {
  CORPUS_CASES,
  CORPUS_COLLECTION,
  type CorpusCase,
  corpusOutcome,
  corpusQueryVector,
  corpusRecords,
  corpusScoreScale,
} from '@treeagent/core/conformance';
import { qdrantCollectionName } from '../collection-name.js';
import { f32Below, shortestF32 } from '../f32.js';
import { toQdrantPointId } from '../point-id.js';
import { ID_KEY, TEXT_KEY } from '../qdrant-vector-store.js';
import { recordingFileName } from './recording-name.js';
import type { RecordedExchange, Recording } from './replay-server.js';

const NAME = qdrantCollectionName(CORPUS_COLLECTION);
const UPSERT_BATCH = 256;
const SOURCES = [
  'https://github.com/qdrant/qdrant/tree/74f3e85b9473c62560006c043e13737ce6b48412/tests/openapi',
  'https://github.com/qdrant/qdrant/blob/74f3e85b9473c62560006c043e13737ce6b48412/lib/segment/src/payload_storage/condition_checker.rs',
];

const ok = (result: unknown) => ({ status: 200, body: { result, status: 'ok', time: 0.0001 } });

function payloadOf(record: VectorRecord): Record<string, unknown> {
  return { [ID_KEY]: record.id, [TEXT_KEY]: record.text, ...record.payload };
}

/** Qdrant's cosine: vectors normalised in float32, the dot product accumulated in float32. */
function unit(vector: ArrayLike<number>): number[] {
  const v = Array.from(vector, Math.fround);
  const norm = Math.fround(Math.sqrt(v.reduce((sum, x) => Math.fround(sum + Math.fround(x * x)), 0)));
  return v.map((x) => Math.fround(x / norm));
}
function cosine(a: number[], b: number[]): number {
  return shortestF32(a.reduce((sum, x, i) => Math.fround(sum + Math.fround(x * b[i]!)), 0));
}

function caseExchanges(c: CorpusCase): RecordedExchange[] {
  const records = corpusRecords(c);
  const size = records[0]!.vector.length;
  const exchanges: RecordedExchange[] = [
    {
      note: 'the collection does not exist yet',
      request: { method: 'GET', path: `/collections/${NAME}/exists` },
      response: ok({ exists: false }),
    },
    {
      note: 'create it: cosine, the size of the vectors',
      request: {
        method: 'PUT',
        path: `/collections/${NAME}`,
        body: { vectors: { size, distance: 'Cosine' } },
      },
      response: ok(true),
    },
  ];
  for (let start = 0; start < records.length; start += UPSERT_BATCH) {
    const batch = records.slice(start, start + UPSERT_BATCH);
    exchanges.push({
      note: `upsert the points of the fixture "${c.collection}"`,
      request: {
        method: 'PUT',
        path: `/collections/${NAME}/points`,
        query: { wait: 'true' },
        body: {
          points: batch.map((r) => ({
            id: toQdrantPointId(r.id),
            vector: Array.from(r.vector, shortestF32),
            payload: payloadOf(r),
          })),
        },
      },
      response: ok({ operation_id: start / UPSERT_BATCH, status: 'completed' }),
    });
  }
  const outcome = corpusOutcome(c);
  if ('rejected' in outcome) return exchanges;
  const byId = new Map(records.map((r) => [r.id, r]));
  const filter = c.request.filter == null ? {} : { filter: c.request.filter };
  const answer = `Qdrant's answer (${c.source.file}::${c.source.test})`;
  if (c.request.endpoint !== 'query') {
    const limit = c.request.endpoint === 'count' ? 100 : (c.request.limit ?? 10);
    if (outcome.ids.length >= limit && outcome.next === undefined)
      throw new Error(`${c.name}: a full page without the corpus's next page offset`);
    const offset = c.request.offset === undefined ? {} : { offset: toQdrantPointId(c.request.offset) };
    exchanges.push({
      note: answer,
      request: {
        method: 'POST',
        path: `/collections/${NAME}/points/scroll`,
        body: { limit, ...offset, ...filter, with_payload: true, with_vector: false },
      },
      response: ok({
        points: outcome.ids.map((id) => ({ id: toQdrantPointId(id), payload: payloadOf(byId.get(id)!) })),
        next_page_offset: outcome.next === undefined ? null : toQdrantPointId(outcome.next),
      }),
    });
    return exchanges;
  }
  const query = unit(corpusQueryVector(c));
  const vector = Array.from(corpusQueryVector(c), shortestF32);
  const limit = c.request.limit ?? 10;
  const scored = (ids: readonly (string | number)[]) => {
    const points = ids.map((id) => {
      const record = byId.get(id)!;
      return {
        id: toQdrantPointId(id),
        version: 0,
        score: cosine(unit(record.vector), query),
        payload: payloadOf(record),
      };
    });
    points.forEach((p, i) => {
      if (i > 0 && p.score > points[i - 1]!.score)
        throw new Error(`${c.name}: cosine order differs from Qdrant's order`);
    });
    return points;
  };
  let threshold: number | undefined;
  if (typeof c.request.scoreThreshold === 'number')
    threshold = c.request.scoreThreshold * corpusScoreScale(c);
  else if (c.request.scoreThreshold) {
    if (c.request.filter != null)
      throw new Error(`${c.name}: a relative threshold with a filter is not supported here`);
    // The runner first asks without a threshold: every point ranked by score, best first.
    const ranked = records
      .map((r) => ({ id: r.id, score: cosine(unit(r.vector), query) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
    const first = scored(ranked.map((r) => r.id));
    exchanges.push({
      note: 'the same query without a threshold, to read the score of the point the threshold is relative to',
      request: {
        method: 'POST',
        path: `/collections/${NAME}/points/query`,
        body: { query: vector, limit, with_payload: true },
      },
      response: ok({ points: first }),
    });
    threshold =
      first[c.request.scoreThreshold.rank - 1]!.score + c.request.scoreThreshold.delta * corpusScoreScale(c);
  }
  const sent = threshold === undefined ? undefined : f32Below(Math.fround(threshold));
  exchanges.push({
    note: answer,
    request: {
      method: 'POST',
      path: `/collections/${NAME}/points/query`,
      body: {
        query: vector,
        ...filter,
        limit,
        ...(sent === undefined ? {} : { score_threshold: sent }),
        with_payload: true,
      },
    },
    response: ok({ points: scored(outcome.ids) }),
  });
  return exchanges;
}

/** Pretty JSON with arrays of numbers, strings and booleans kept on one line. */
function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /\[\s*([^[\]{}]*?)\s*\]/g,
    (_match, inner: string) => `[${inner.replace(/,\s+/g, ', ')}]`,
  );
}

const directory = new URL('./recordings/corpus/', import.meta.url);
mkdirSync(directory, { recursive: true });
for (const file of readdirSync(directory)) if (file.endsWith('.json')) rmSync(new URL(file, directory));
for (const c of CORPUS_CASES) {
  const recording: Recording = {
    description: `Qdrant REST exchanges of QdrantVectorStore for the corpus case "${c.name}" (from Qdrant's ${c.source.file}::${c.source.test}); answers from the corpus, see write-corpus-recordings.ts.`,
    sources: SOURCES,
    exchanges: caseExchanges(c),
  };
  writeFileSync(new URL(recordingFileName(c.name), directory), `${formatJson(recording)}\n`);
}
console.log(`wrote ${CORPUS_CASES.length} recordings to ${directory.pathname}`);
