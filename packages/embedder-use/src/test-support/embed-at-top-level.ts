/**
 * Run as a script (`node --import tsx`): awaits a UseEmbedder (a worker thread) at the top level,
 * prints the vector's length, and never closes it. The process must print 512 (the worker keeps it
 * alive while a call waits) and then exit by itself (an idle worker does not).
 */
import { UseEmbedder } from '../use-embedder.js';

const [vector] = await new UseEmbedder().embed(['how do I reset my pin']);
console.log(vector!.length);
