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

/**
 * Loopback, private, link-local, carrier-grade NAT, unique-local, unspecified, multicast and reserved
 * ranges. An IPv6 address that embeds an IPv4 one (IPv4-mapped `::ffff:7f00:1`, IPv4-compatible
 * `::7f00:1`, IPv4-translated `::ffff:0:7f00:1`, NAT64 `64:ff9b::7f00:1`, 6to4 `2002:7f00:1::`,
 * Teredo) is judged by the IPv4 address it reaches, in hex or dotted form.
 */
export function isInternalAddress(address: string): boolean {
  if (isIP(address) === 4) return isInternalIpv4(address.split('.').map(Number));
  const groups = ipv6Groups(address);
  // Not an address this guard can read: refuse rather than guess.
  if (!groups) return true;
  const embedded = embeddedIpv4(groups);
  if (embedded.some(isInternalIpv4)) return true;
  const [first] = groups as [number];
  return (
    groups.every((group) => group === 0) || // ::
    (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) || // ::1
    (first & 0xfe00) === 0xfc00 || // fc00::/7 unique-local
    (first & 0xffc0) === 0xfe80 || // fe80::/10 link-local
    (first & 0xffc0) === 0xfec0 || // fec0::/10 site-local (deprecated)
    (first & 0xff00) === 0xff00 || // ff00::/8 multicast
    (first === 0x64 && groups[1] === 0xff9b && groups[2] === 1) || // 64:ff9b:1::/48 local NAT64
    (first === 0x100 && groups.slice(1, 4).every((group) => group === 0)) // 100::/64 discard
  );
}

function isInternalIpv4(octets: readonly number[]): boolean {
  const [a, b, c] = octets as [number, number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 0 && c === 0) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a trailing dotted IPv4 read), or `null`. */
function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/%.*$/, '');
  if (isIP(text) !== 6) return null;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const before = parse(head);
  const after = tail === undefined ? [] : parse(tail);
  const groups =
    tail === undefined ? before : [...before, ...Array(8 - before.length - after.length).fill(0), ...after];
  return groups.length === 8 && groups.every((group) => group >= 0 && group <= 0xffff) ? groups : null;
}

/** The IPv4 addresses an IPv6 address carries, by the transition schemes that route to them. */
function embeddedIpv4(groups: readonly number[]): number[][] {
  const v4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
  const zero = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const found: number[][] = [];
  // ::a.b.c.d (IPv4-compatible), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated)
  if (zero(0, 4) && ((g4 === 0 && (g5 === 0 || g5 === 0xffff)) || (g4 === 0xffff && g5 === 0)))
    found.push(v4(g6, g7));
  // 64:ff9b::/96, the well-known NAT64 prefix
  if (g0 === 0x64 && g1 === 0xff9b && zero(2, 6)) found.push(v4(g6, g7));
  // 2002::/16, 6to4: the IPv4 address follows the prefix
  if (g0 === 0x2002) found.push(v4(g1, g2));
  // 2001:0::/32, Teredo: the server's IPv4, and the client's (its bits inverted)
  if (g0 === 0x2001 && g1 === 0) found.push(v4(g2, g3), v4(g6 ^ 0xffff, g7 ^ 0xffff));
  return found;
}
