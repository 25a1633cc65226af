import { loadChannels } from '../channels-adapter.js';
import type { Output } from '../output.js';

/**
 * `treeagent channels check <file>`: validates a channels configuration (its secrets included, as
 * `serve --channels` would read them) and prints the webhook URL to register on each platform.
 */
export async function channelsCheckCommand(file: string, out: Output): Promise<number> {
  const loaded = await loadChannels(file);
  out.log(`${file}: ${loaded.channels.length} channel(s), every secret readable.`);
  for (const webhook of loaded.webhooks)
    out.log(`${webhook.name} (${webhook.platform}): register ${webhook.url}`);
  return 0;
}
