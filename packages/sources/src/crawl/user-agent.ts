import { createRequire } from 'node:module';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** The crawler's product token, which robots.txt groups name (`User-agent: TreeAgent-Sources`). */
export const USER_AGENT_TOKEN = 'TreeAgent-Sources';

/**
 * The `User-Agent` header the crawler sends: `TreeAgent-Sources/<version> (+<contact>)`, where
 * `contact` is a page (or mailto:) that tells a site owner who crawls them and why.
 */
export function userAgent(contact = 'https://www.npmjs.com/package/@treeagent/sources'): string {
  return `${USER_AGENT_TOKEN}/${version} (+${contact})`;
}
