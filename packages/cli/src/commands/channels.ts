import { TreeAgentError } from '@treeagent/core';
import { loadChannels } from '../channels-adapter.js';
import type { Output } from '../output.js';
import { defineCommand } from './command-definition.js';

/**
 * `treeagent channels check <file>`: validates a channels configuration (its secrets included, as
 * `serve --channels` would read them) and prints the webhook URL to register on each platform.
 */
export async function channelsCheckCommand(file: string, out: Output): Promise<number> {
  const loaded = await loadChannels(file);
  out.log(`${file}: ${loaded.channels.length} channel(s), every secret readable.`);
  for (const webhook of loaded.webhooks)
    out.log(
      `${webhook.name} (${webhook.platform}): register ${webhook.url}${webhook.where ? ` as ${webhook.where}` : ''}`,
    );
  return 0;
}

/** `treeagent channels check <file>`: its help, arguments and options (the command table, `command-table.ts`). */
export const channelsDefinition = defineCommand({
  name: 'channels',
  description:
    'Messaging channels (docs/channels.md): check validates a channels.json (its secrets included, as serve --channels reads them) and prints the webhook URL to register on each platform.',
  arguments: [
    { name: '<action>', description: 'check' },
    { name: '<file>', description: 'the channels configuration (channels.json)' },
  ],
  options: [],
  run: ([action, file], _options, out) => {
    if (action !== 'check')
      throw new TreeAgentError('INVALID_INPUT', `Unknown channels action "${action}": use check.`);
    return channelsCheckCommand(file!, out);
  },
});
