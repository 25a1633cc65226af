import { BlockList, isIP } from 'node:net';
import type { Context, MiddlewareHandler } from 'hono';

declare module 'hono' {
  interface ContextVariableMap {
    /** The client's address as `trustClientAddress` resolved it (`ip:<address>`). */
    clientAddress: string;
    /** Whether the client reached the trusted proxy over HTTPS, as `trustClientAddress` resolved it. */
    forwardedHttps: boolean;
  }
}

/** Which header a trusted proxy writes the client's address to. */
export type ForwardedHeader = 'x-forwarded-for' | 'forwarded';

/**
 * The reverse proxies in front of the server (option `trustProxy` of `createApp`,
 * `--trust-proxy` of `treeagent serve`): only a request whose direct peer is one of `addresses`
 * has its client address read from `header`.
 */
export interface TrustProxyOptions {
  /** Addresses and CIDR ranges of the proxies: `127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`. */
  addresses: readonly string[];
  /**
   * The header the proxies append the client's address to: `x-forwarded-for` (default: nginx's
   * `$proxy_add_x_forwarded_for`, HAProxy's `option forwardfor`) or `forwarded` (RFC 7239, HAProxy's
   * `option forwarded`). Only this one is read: the other passes through a proxy unchanged, so a
   * client could write it.
   */
  header?: ForwardedHeader;
}

/** The socket's peer, with an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) written as IPv4. */
function socketAddress(c: Context): string | null {
  const address = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
    ?.socket?.remoteAddress;
  return address ? normalize(address) : null;
}

function normalize(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/**
 * The key of an address for per-client limits: an IPv4 address itself; an IPv6 address its /64
 * network (`2001:db8:1:2::/64`), since one host or home line usually holds a whole /64 and could
 * otherwise take a new address for every request. Anything else (a proxy's `unknown`) as given.
 */
export function addressKey(address: string): string {
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.replace(/%.*$/, '').toLowerCase().split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const lastRight = right.at(-1) ?? left.at(-1) ?? '';
  // An embedded IPv4 address (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) lies in the last 32 bits: not in the prefix.
  const width = lastRight.includes('.') ? 7 : 8;
  const full =
    tail === undefined ? left : [...left, ...Array(width - left.length - right.length).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((group) => Number.parseInt(group || '0', 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The client's address, as a key for per-client limits: `ip:<address>` (an IPv6 address by its /64,
 * `addressKey`), or `anonymous` when the
 * runtime exposes no socket. It is the Node socket's peer — never a header a client could forge —
 * unless the app trusts proxies (`trustProxy`): then `trustClientAddress` resolved it from the
 * proxy's header.
 */
export function clientAddress(c: Context): string {
  const resolved = c.get('clientAddress');
  if (resolved) return resolved;
  const address = socketAddress(c);
  return address ? `ip:${addressKey(address)}` : 'anonymous';
}

/** The proxies of `options` as a `BlockList`, or a `TypeError` naming the entry that is not an address or a range. */
export function trustedProxies(addresses: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of addresses) {
    const [address, prefix, extra] = entry.trim().split('/');
    const family = isIP(address ?? '');
    const bits = prefix === undefined ? null : Number(prefix);
    const maxBits = family === 6 ? 128 : 32;
    if (
      !family ||
      extra !== undefined ||
      (bits !== null && (!/^\d{1,3}$/.test(prefix!) || bits < 0 || bits > maxBits))
    ) {
      throw new TypeError(
        `trustProxy: "${entry}" is not an IP address or a CIDR range. Give the addresses of your reverse proxies, e.g. 127.0.0.1, 10.0.0.0/8 or fd00::/8.`,
      );
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === null) list.addAddress(normalize(address!), type);
    else list.addSubnet(address!, bits, type);
  }
  return list;
}

/** The addresses a header lists, left (first hop) to right (last hop), without quotes, brackets or ports. */
export function forwardedAddresses(value: string, header: ForwardedHeader): string[] {
  const entries =
    header === 'forwarded'
      ? value.split(',').flatMap((element) => {
          const pair = element
            .split(';')
            .map((part) => part.trim())
            .find((part) => /^for=/i.test(part));
          return pair ? [pair.slice(4)] : [];
        })
      : value.split(',');
  return entries
    .map((entry) => {
      let address = entry.trim().replace(/^"|"$/g, '');
      const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
      if (bracketed) address = bracketed[1]!;
      else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
      return normalize(address);
    })
    .filter((address) => address !== '');
}

/**
 * Whether the client's request came over HTTPS: the URL's scheme, or — only when a trusted proxy
 * (`trustProxy`) sent the request — the scheme the proxy wrote (`X-Forwarded-Proto`, or `proto=` of
 * `Forwarded`). From any other peer those headers are ignored: a client cannot choose, for example,
 * whether the login cookie is `Secure`.
 */
export function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:' || c.get('forwardedHttps') === true;
}

/** The scheme the nearest proxy wrote: the right-most value of `X-Forwarded-Proto` or of `Forwarded`'s `proto=`. */
export function forwardedProto(c: Context, header: ForwardedHeader): string | null {
  const values =
    header === 'forwarded'
      ? (c.req.header('forwarded') ?? '').split(',').flatMap((element) => {
          const pair = element
            .split(';')
            .map((part) => part.trim())
            .find((part) => /^proto=/i.test(part));
          return pair ? [pair.slice(6)] : [];
        })
      : (c.req.header('x-forwarded-proto') ?? '').split(',');
  const last = values
    .map((value) => value.trim().replace(/^"|"$/g, '').toLowerCase())
    .filter(Boolean)
    .at(-1);
  return last ?? null;
}

/**
 * A middleware that resolves the client's address once per request (`clientAddress(c)` then returns
 * it): when the socket's peer is a trusted proxy, the right-most address of the proxy's header that
 * is not itself a trusted proxy (the left-most when all are); otherwise the peer, headers ignored.
 * Likewise the scheme (`isHttps(c)`): read from the proxy's header only when the peer is trusted.
 */
export function trustClientAddress(options: TrustProxyOptions): MiddlewareHandler {
  const trusted = trustedProxies(options.addresses);
  const header = options.header ?? 'x-forwarded-for';
  const isTrusted = (address: string) => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
  return async (c, next) => {
    const peer = socketAddress(c);
    let client = peer;
    if (peer && isTrusted(peer)) {
      const hops = forwardedAddresses(c.req.header(header) ?? '', header);
      if (hops.length) client = hops.findLast((hop) => !isTrusted(hop)) ?? hops[0]!;
      if (forwardedProto(c, header) === 'https') c.set('forwardedHttps', true);
    }
    // A value a proxy did not check is still only a key: bounded, so no one fills memory with it.
    c.set('clientAddress', client ? `ip:${addressKey(client.slice(0, 100))}` : 'anonymous');
    await next();
  };
}
