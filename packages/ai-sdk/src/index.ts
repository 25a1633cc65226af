export { type AiSdkEmbedderOptions, aiSdkEmbedder } from './ai-sdk-embedder.js';
export { type AiSdkModelOptions, aiSdkModel, type FileLoader } from './ai-sdk-language-model.js';
export { type ModelParamSupport, splitParams } from './model-params.js';
export {
  checkModelsConfig,
  createModels,
  type ModelsConfig,
  modelConfigFromEnv,
  readModelsConfig,
} from './models-config.js';
export { createModel, type ModelConfig, PROVIDERS, type ProviderName, resolveSecret } from './providers.js';
