import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { TreeAgentError } from '@treeagent/core';
import type { LanguageModel } from '@treeagent/core/adapter';
import { type AiSdkModelOptions, aiSdkModel } from './ai-sdk-language-model.js';
import type { ModelParamSupport } from './model-params.js';

/** Providers with ready configuration. */
export const PROVIDERS = ['openai', 'azure', 'anthropic', 'openai-compatible'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** How to reach one language model. Secrets may be written `env:NAME` to read them from the environment. */
export interface ModelConfig {
  provider: ProviderName;
  /** Model id; for Azure, the deployment name. */
  model: string;
  apiKey?: string;
  /** API base URL: required for `openai-compatible` (Ollama `http://localhost:11434/v1`, vLLM, llama.cpp server). */
  baseURL?: string;
  /** Azure resource name (or give `baseURL`). */
  resourceName?: string;
  /** Azure API version. */
  apiVersion?: string;
  /** OpenAI and Azure: `chat` (chat completions, default) or `responses` (needed for `webSearch`). */
  api?: 'chat' | 'responses';
  /** `openai-compatible`: whether the server enforces `json_schema` response formats. Default true. */
  supportsJsonSchema?: boolean;
  headers?: Record<string, string>;
}

const COMMON = [
  'temperature',
  'topP',
  'maxOutputTokens',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'stopSequences',
];

/**
 * Builds a Tree Agent language model from a configuration, through the AI SDK provider packages.
 *
 * @example
 * createModel({ provider: 'openai-compatible', baseURL: 'http://localhost:11434/v1', model: 'llama3.2' });
 */
export function createModel(
  config: ModelConfig,
  options: Pick<AiSdkModelOptions, 'loadFile' | 'maxRetries' | 'supportsTools'> & {
    env?: NodeJS.ProcessEnv;
  } = {},
): LanguageModel {
  const env = options.env ?? process.env;
  const apiKey = resolveSecret(config.apiKey, env);
  const headers = config.headers;
  const id = `${config.provider}:${config.model}`;
  const shared = {
    id,
    ...(options.loadFile ? { loadFile: options.loadFile } : {}),
    ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    ...(options.supportsTools === undefined ? {} : { supportsTools: options.supportsTools }),
  };
  switch (config.provider) {
    case 'openai': {
      const provider = createOpenAI({ ...opt({ apiKey, baseURL: config.baseURL, headers }) });
      const responses = config.api === 'responses';
      const model = responses ? provider.responses(config.model) : provider.chat(config.model);
      return aiSdkModel(model, {
        ...shared,
        params: openAiParams('openai', responses, () => provider.tools.webSearch({})),
      });
    }
    case 'azure': {
      const provider = createAzure({
        ...opt({
          apiKey,
          baseURL: config.baseURL,
          resourceName: config.resourceName,
          apiVersion: config.apiVersion,
          headers,
        }),
        useDeploymentBasedUrls: config.api !== 'responses',
      });
      const responses = config.api === 'responses';
      const model = responses ? provider.responses(config.model) : provider.chat(config.model);
      return aiSdkModel(model, {
        ...shared,
        params: openAiParams('azure', responses, () => provider.tools.webSearch({})),
      });
    }
    case 'anthropic': {
      const provider = createAnthropic({ ...opt({ apiKey, baseURL: config.baseURL, headers }) });
      return aiSdkModel(provider(config.model), { ...shared, params: { supported: [...COMMON, 'topK'] } });
    }
    case 'openai-compatible': {
      if (!config.baseURL) {
        throw new TreeAgentError(
          'MODEL_NOT_CONFIGURED',
          `Model "${config.model}" (openai-compatible) needs a baseURL, e.g. http://localhost:11434/v1 for Ollama.`,
        );
      }
      const supportsJsonSchema = config.supportsJsonSchema ?? true;
      const provider = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: config.baseURL,
        ...opt({ apiKey, headers }),
        supportsStructuredOutputs: supportsJsonSchema,
        includeUsage: true,
      });
      return aiSdkModel(provider.chatModel(config.model), {
        ...shared,
        supportsJsonSchema,
        params: { supported: COMMON },
      });
    }
    default:
      throw new TreeAgentError(
        'MODEL_NOT_CONFIGURED',
        `Unknown model provider "${(config as { provider: string }).provider}". Use one of: ${PROVIDERS.join(', ')}.`,
      );
  }
}

function openAiParams(
  provider: 'openai' | 'azure',
  responses: boolean,
  webSearch: () => unknown,
): ModelParamSupport {
  return {
    supported: [...COMMON, 'reasoningEffort', ...(responses ? ['webSearch'] : [])],
    providerOptions: { reasoningEffort: (value) => ({ [provider]: { reasoningEffort: value as string } }) },
    tools: { webSearch: (value) => (value ? ({ web_search: webSearch() } as never) : null) },
  };
}

/** Resolves `env:NAME` to the variable's value. */
export function resolveSecret(value: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  if (value?.startsWith('env:')) {
    const name = value.slice(4);
    const resolved = env[name];
    if (!resolved)
      throw new TreeAgentError(
        'MODEL_NOT_CONFIGURED',
        `The environment variable ${name} is not set (the model configuration reads it).`,
      );
    return resolved;
  }
  return value;
}

function opt<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
