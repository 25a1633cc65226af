/** Test utilities for Tree Agent users: scripted models and exact embedders (mocks, for tests only). */
export { ExactEmbedder, type ExactEmbedderOptions } from './exact-embedder.js';
export {
  type ScriptedAnswer,
  ScriptedLanguageModel,
  type ScriptedLanguageModelOptions,
} from './scripted-language-model.js';
