import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UseEmbedder } from '../../packages/embedder-use/src/index.js';
import { buildCorpus } from './corpus.js';

/**
 * The teacher's vectors: USE-lite (2 worker threads) on every sentence of the student's training
 * text (`corpus.ts`), unit length, float32, in corpus order, appended to
 * `bench/.cache/student/teacher.f32` block by block so an interrupted run resumes where it stopped.
 *
 * npx tsx bench/student/embed-teacher.ts
 */
export const CACHE_DIR = fileURLToPath(new URL('../.cache/student/', import.meta.url));
export const DIMENSIONS = 512;

export function teacherFiles() {
  return { sentences: `${CACHE_DIR}sentences.json`, vectors: `${CACHE_DIR}teacher.f32` };
}

/** The corpus and as many teacher vectors as are embedded (a Float32Array of n × 512). */
export function loadTeacher(): { sentences: string[]; vectors: Float32Array } {
  const files = teacherFiles();
  const sentences = JSON.parse(readFileSync(files.sentences, 'utf8')) as string[];
  const buffer = readFileSync(files.vectors);
  const vectors = new Float32Array(
    buffer.buffer,
    buffer.byteOffset,
    Math.floor(buffer.length / 4 / DIMENSIONS) * DIMENSIONS,
  );
  return { sentences: sentences.slice(0, vectors.length / DIMENSIONS), vectors };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  mkdirSync(CACHE_DIR, { recursive: true });
  const files = teacherFiles();
  const { sentences, counts } = buildCorpus();
  console.log(counts, sentences.length);
  if (existsSync(files.sentences) && readFileSync(files.sentences, 'utf8') !== JSON.stringify(sentences))
    throw new Error(`${files.sentences} holds another corpus: delete ${CACHE_DIR} to embed this one.`);
  writeFileSync(files.sentences, JSON.stringify(sentences));
  const done = existsSync(files.vectors) ? Math.floor(statSync(files.vectors).size / 4 / DIMENSIONS) : 0;
  const use = new UseEmbedder({ batchSize: 32, workers: 2 });
  const out = openSync(files.vectors, 'a');
  const started = performance.now();
  const BLOCK = 2048;
  for (let start = done; start < sentences.length; start += BLOCK) {
    const block = sentences.slice(start, start + BLOCK);
    const vectors = await use.embed(block);
    const rows = new Float32Array(block.length * DIMENSIONS);
    vectors.forEach((vector, i) => {
      const norm = Math.hypot(...vector) || 1;
      for (let d = 0; d < DIMENSIONS; d++) rows[i * DIMENSIONS + d] = vector[d]! / norm;
    });
    writeSync(out, new Uint8Array(rows.buffer));
    const seconds = (performance.now() - started) / 1000;
    console.log(`${start + block.length} / ${sentences.length} in ${seconds.toFixed(0)} s`);
  }
  closeSync(out);
  await use.close();
}
