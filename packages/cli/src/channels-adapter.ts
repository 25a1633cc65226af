import { TreeAgentError } from '@treeagent/core';
import { isMissingPackage } from './postgres-adapter.js';

/** The messaging channels: an optional peer dependency of the CLI (package.json `peerDependenciesMeta`). */
export const CHANNELS_PACKAGE = '@treeagent/channels';

/** What the CLI uses of `@treeagent/channels`. */
export interface ChannelsModule {
  loadChannelsConfig(file: string): {
    channels: import('@treeagent/core/adapter').Channel[];
    webhooks: { name: string; platform: string; url: string; where?: string }[];
    /** Whether to keep the web chat and the OpenAI-compatible endpoint (absent before these switches: kept). */
    webChat?: boolean;
    openAiCompatible?: boolean;
  };
}

/**
 * Reads `--channels <file>` through `@treeagent/channels` (imported by name at run time, so the CLI
 * installs without it): an `INVALID_INPUT` error names the fix when the package is missing or the
 * configuration is refused (a missing or world-readable secret, an unknown platform).
 */
export async function loadChannels(file: string): Promise<ReturnType<ChannelsModule['loadChannelsConfig']>> {
  let module: ChannelsModule;
  try {
    module = (await import(CHANNELS_PACKAGE)) as ChannelsModule;
  } catch (error) {
    if (!isMissingPackage(error, CHANNELS_PACKAGE)) throw error;
    throw new TreeAgentError(
      'INVALID_INPUT',
      `--channels uses ${CHANNELS_PACKAGE}, an optional peer dependency of @treeagent/cli that is not installed. Install it beside the CLI: npm install ${CHANNELS_PACKAGE}.`,
      { cause: error },
    );
  }
  try {
    return module.loadChannelsConfig(file);
  } catch (error) {
    if ((error as Error)?.name === 'ChannelsConfigError' || error instanceof TypeError)
      throw new TreeAgentError('INVALID_INPUT', (error as Error).message, { cause: error });
    throw error;
  }
}
