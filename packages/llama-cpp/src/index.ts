export { type ChatHistoryOptions, schemaInstruction, toChatHistory } from './chat-history.js';
export { toGbnfJsonSchema } from './json-schema-grammar.js';
export {
  generationOptions,
  LLAMA_CPP_PARAMS,
  type LlamaCppModel,
  type LlamaCppModelOptions,
  llamaCppModel,
} from './llama-cpp-model.js';
