/**
 * Run as a script (`node --import tsx abort-then-exit.ts <ms>`): starts a long call on a new
 * UseEmbedder, aborts it after `ms` (while the model loads or a batch is computed, by the time),
 * prints `aborted` and lets the script end without close().
 * The process must wait for the batch under way and exit normally: exiting at once would terminate
 * the worker in the middle of ONNX Runtime's call, which aborts the whole process.
 */
import { UseEmbedder } from '../use-embedder.js';

const embedder = new UseEmbedder();
const controller = new AbortController();
const texts = Array.from({ length: 800 }, (_, index) => `please tell me about order number ${index}`);
const call = embedder.embed(texts, { signal: controller.signal }).catch((error: unknown) => error);
await new Promise((resolve) => setTimeout(resolve, Number(process.argv[2] ?? 800)));
controller.abort();
await call;
console.log('aborted');
