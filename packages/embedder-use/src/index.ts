export { UseEmbedder, type UseEmbedderOptions, type UseEmbedderThread } from './use-embedder.js';
