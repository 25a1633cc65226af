export {
  onnxFileFor,
  type TransformersDtype,
  TransformersEmbedder,
  type TransformersEmbedderOptions,
} from './transformers-embedder.js';
