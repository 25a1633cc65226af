export { UseEmbedder, type UseEmbedderOptions } from './use-embedder.js';
