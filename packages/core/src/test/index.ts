/** Test utilities for Tree Agent users: scripted models and exact embedders (mocks, for tests only), rejection helpers. */
export { ExactEmbedder, type ExactEmbedderOptions } from './exact-embedder.js';
export { rejection, rejectionReason } from './rejection.js';
export {
  type ScriptedAnswer,
  ScriptedLanguageModel,
  type ScriptedLanguageModelOptions,
  type ScriptedToolCalls,
} from './scripted-language-model.js';
