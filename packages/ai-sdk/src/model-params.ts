import type { ProviderOptions } from '@ai-sdk/provider-utils';
import type { ToolSet } from 'ai';

/** AI SDK call settings a Tree Agent `modelParams` key may map to. */
const CALL_SETTINGS = [
  'temperature',
  'topP',
  'topK',
  'maxOutputTokens',
  'presencePenalty',
  'frequencyPenalty',
  'seed',
  'stopSequences',
] as const;

/** Which `modelParams` a model accepts, and how provider-specific ones travel. */
export interface ModelParamSupport {
  /** Accepted keys. The engine drops the others (with a `model-param-dropped` event) before the call. */
  supported: readonly string[];
  /**
   * Provider-specific params, by key: where to put them in `providerOptions`
   * (e.g. `reasoningEffort` → `{ openai: { reasoningEffort } }`).
   */
  providerOptions?: Record<string, (value: unknown) => ProviderOptions>;
  /**
   * Params that switch on provider tools (e.g. `webSearch` → OpenAI's web search tool): an AI SDK
   * `ToolSet`, typed loosely here so that this package's declarations do not load the `ai`
   * package's (which do not type-check under `exactOptionalPropertyTypes` with `skipLibCheck: false`).
   */
  tools?: Record<string, (value: unknown) => Record<string, unknown> | null>;
}

/** Splits model params into AI SDK call settings and provider options. */
export function splitParams(
  params: Record<string, unknown>,
  support: ModelParamSupport,
): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  let providerOptions: ProviderOptions | undefined;
  let tools: ToolSet | undefined;
  for (const [key, value] of Object.entries(params)) {
    if ((CALL_SETTINGS as readonly string[]).includes(key)) settings[key] = value;
    const toOptions = support.providerOptions?.[key];
    if (toOptions) providerOptions = merge(providerOptions ?? {}, toOptions(value));
    const toTools = support.tools?.[key]?.(value);
    if (toTools) tools = { ...(tools ?? {}), ...(toTools as ToolSet) };
  }
  return { ...settings, ...(providerOptions ? { providerOptions } : {}), ...(tools ? { tools } : {}) };
}

function merge(target: ProviderOptions, source: ProviderOptions): ProviderOptions {
  const out: ProviderOptions = { ...target };
  for (const [provider, options] of Object.entries(source))
    out[provider] = { ...(out[provider] ?? {}), ...options };
  return out;
}
