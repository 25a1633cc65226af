import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { TreeAgentError } from '@treeagent/core';

/**
 * Which addresses the crawler may fetch. By default only public ones: a URL whose host is, or
 * resolves to, a loopback, private, link-local or otherwise internal address is refused, so a
 * source added through the server cannot make it read its own network (SSRF).
 */
export interface AddressPolicy {
  /**
   * Hosts (names or IP addresses, exactly as in the URL) that may be internal: e.g. `['127.0.0.1']`
   * for a test site, or an intranet's help center. `'*'` allows every address. Default none.
   */
  allowPrivateHosts?: readonly string[];
}

/**
 * Checks that a URL may be fetched: http or https, and its host public (every address it resolves
 * to) unless `allowPrivateHosts` names it. Throws `INVALID_INPUT` naming the URL and the setting.
 */
export async function checkAddress(url: URL, policy: AddressPolicy = {}): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${url.href} is not an http(s) URL: give a web page's address.`,
    );
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const allowed = policy.allowPrivateHosts ?? [];
  if (allowed.includes('*') || allowed.includes(host)) return;
  const addresses = isIP(host) ? [host] : (await lookupAll(host, url)).map((entry) => entry);
  const internal = addresses.find(isInternalAddress);
  if (internal !== undefined)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${url.href} points to the internal address ${internal}, which sources may not fetch by default (it could expose the server's network). If this site is yours and internal on purpose, allow its host with allowPrivateHosts: ["${host}"] (the server's TREEAGENT_SOURCES_ALLOW_HOSTS).`,
    );
}

async function lookupAll(host: string, url: URL): Promise<string[]> {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch (error) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${url.href}: the host ${host} cannot be resolved (${(error as Error).message}).`,
      {
        cause: error,
      },
    );
  }
}

/** Loopback, private, link-local, carrier-grade NAT, unique-local, unspecified, multicast and reserved ranges. */
export function isInternalAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  const lower = address.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return isInternalAddress(mapped[1]!);
  return (
    lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower) || /^ff/.test(lower)
  );
}
