import { readFileSync } from 'node:fs';
import { TreeAgentError } from '@treeagent/core';
import type { LanguageModel } from '@treeagent/core/adapter';
import type { AiSdkModelOptions } from './ai-sdk-language-model.js';
import { createModel, type ModelConfig, PROVIDERS, type ProviderName } from './providers.js';

/** A configuration file's `models`: language models by name; `default` serves nodes that name none. */
export interface ModelsConfig {
  models: Record<string, ModelConfig>;
}

const DEFAULT_MODELS: Record<ProviderName, string> = {
  openai: 'gpt-4o-mini',
  azure: 'gpt-4o-mini',
  anthropic: 'claude-3-5-haiku-latest',
  'openai-compatible': 'llama3.2',
};

/**
 * The default model from environment variables, or `null` when none is configured:
 * - `TREEAGENT_PROVIDER` (`openai`, `azure`, `anthropic`, `openai-compatible`), `TREEAGENT_MODEL`,
 *   `TREEAGENT_BASE_URL`, `TREEAGENT_API_KEY`; Azure also `AZURE_RESOURCE_NAME`, `AZURE_API_VERSION`;
 * - without `TREEAGENT_PROVIDER`: OpenAI when `OPENAI_API_KEY` is set, else Anthropic when
 *   `ANTHROPIC_API_KEY` is set.
 */
export function modelConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ModelConfig | null {
  const explicit = env.TREEAGENT_PROVIDER as ProviderName | undefined;
  const provider =
    explicit ?? (env.OPENAI_API_KEY ? 'openai' : env.ANTHROPIC_API_KEY ? 'anthropic' : undefined);
  if (!provider) return null;
  if (!PROVIDERS.includes(provider)) {
    throw new TreeAgentError(
      'MODEL_NOT_CONFIGURED',
      `TREEAGENT_PROVIDER="${provider}" is not a known provider. Use one of: ${PROVIDERS.join(', ')}.`,
    );
  }
  const standardKey = {
    openai: 'OPENAI_API_KEY',
    azure: 'AZURE_API_KEY',
    anthropic: 'ANTHROPIC_API_KEY',
    'openai-compatible': 'OPENAI_API_KEY',
  }[provider];
  const apiKey = env.TREEAGENT_API_KEY ?? env[standardKey];
  const config: ModelConfig = { provider, model: env.TREEAGENT_MODEL ?? DEFAULT_MODELS[provider] };
  if (apiKey) config.apiKey = apiKey;
  if (env.TREEAGENT_BASE_URL) config.baseURL = env.TREEAGENT_BASE_URL;
  if (provider === 'azure') {
    if (env.AZURE_RESOURCE_NAME) config.resourceName = env.AZURE_RESOURCE_NAME;
    if (env.AZURE_API_VERSION) config.apiVersion = env.AZURE_API_VERSION;
  }
  return config;
}

/** Reads and checks a JSON configuration file with a `models` section. */
export function readModelsConfig(path: string): ModelsConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new TreeAgentError(
      'MODEL_NOT_CONFIGURED',
      `Cannot read the model configuration ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return checkModelsConfig(parsed, path);
}

/** Checks a `{ models: { name: ModelConfig } }` object, naming the entry and field that is wrong. */
export function checkModelsConfig(value: unknown, source = 'the configuration'): ModelsConfig {
  const models = (value as { models?: unknown } | null)?.models;
  if (typeof models !== 'object' || models === null || Array.isArray(models)) {
    throw new TreeAgentError(
      'MODEL_NOT_CONFIGURED',
      `${source} has no "models" object. Write { "models": { "default": { "provider": "openai", "model": "gpt-4o-mini" } } }.`,
    );
  }
  for (const [name, entry] of Object.entries(models)) {
    const config = entry as Partial<ModelConfig>;
    if (!PROVIDERS.includes(config?.provider as ProviderName)) {
      throw new TreeAgentError(
        'MODEL_NOT_CONFIGURED',
        `${source}: models.${name}.provider must be one of ${PROVIDERS.join(', ')}, got ${JSON.stringify(config?.provider)}.`,
      );
    }
    if (typeof config.model !== 'string' || config.model === '') {
      throw new TreeAgentError(
        'MODEL_NOT_CONFIGURED',
        `${source}: models.${name}.model must be the model id (the deployment name on Azure).`,
      );
    }
  }
  return { models: models as Record<string, ModelConfig> };
}

/**
 * The language models of a tree: those of the configuration file when given, plus the default
 * model from the environment when the file does not define `default`. Empty when nothing is configured.
 */
export function createModels(
  options: { config?: ModelsConfig | null; env?: NodeJS.ProcessEnv } & Pick<
    AiSdkModelOptions,
    'loadFile' | 'maxRetries'
  > = {},
): Record<string, LanguageModel> {
  const env = options.env ?? process.env;
  const configs: Record<string, ModelConfig> = { ...(options.config?.models ?? {}) };
  if (!configs.default) {
    const fromEnv = modelConfigFromEnv(env);
    if (fromEnv) configs.default = fromEnv;
  }
  const { loadFile, maxRetries } = options;
  const shared = {
    env,
    ...(loadFile ? { loadFile } : {}),
    ...(maxRetries === undefined ? {} : { maxRetries }),
  };
  return Object.fromEntries(
    Object.entries(configs).map(([name, config]) => [name, createModel(config, shared)]),
  );
}
