import { describe, expect, it } from 'vitest';
import { testApp } from '../test-support/fixtures.js';
import { addressKey, forwardedAddresses, trustedProxies } from './client-address.js';

/** What @hono/node-server passes as the env: the socket, whose peer is `address`. */
const peer = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
const BAD_KEY = { Authorization: 'Bearer sk-wrong-key-0000' };

/** Sends `count` requests with a wrong API key from `address`; returns the last status. */
async function failAuth(
  app: ReturnType<typeof testApp>['app'],
  address: string,
  headers: Record<string, string>,
  count: number,
) {
  let status = 0;
  for (let i = 0; i < count; i++) {
    const response = await app.request(
      '/api/v1/tree',
      { headers: { ...BAD_KEY, ...headers } },
      peer(address),
    );
    status = response.status;
  }
  return status;
}

describe('trustProxy: the client address behind a reverse proxy', () => {
  const limit = { windowMs: 60_000, max: 3 };

  it('without trustProxy, X-Forwarded-For and Forwarded are ignored: the socket address counts', async () => {
    const { app } = testApp({ apiKeys: ['sk-right-key-0000'], authFailureLimit: limit });
    // A client that writes a new address into each request still counts as itself.
    for (let i = 0; i < 3; i++) {
      await failAuth(
        app,
        '203.0.113.7',
        { 'X-Forwarded-For': `198.51.100.${i}`, Forwarded: `for=198.51.100.${i}` },
        1,
      );
    }
    expect(await failAuth(app, '203.0.113.7', { 'X-Forwarded-For': '198.51.100.99' }, 1)).toBe(429);
  });

  it('a spoofed header from a peer that is not a trusted proxy is ignored', async () => {
    const { app } = testApp({
      apiKeys: ['sk-right-key-0000'],
      authFailureLimit: limit,
      trustProxy: ['10.0.0.1'],
    });
    for (let i = 0; i < 3; i++)
      await failAuth(app, '203.0.113.7', { 'X-Forwarded-For': `198.51.100.${i}` }, 1);
    expect(await failAuth(app, '203.0.113.7', { 'X-Forwarded-For': '198.51.100.99' }, 1)).toBe(429);
  });

  it('from a trusted proxy, each forwarded client has its own limit (the right-most untrusted address)', async () => {
    const { app } = testApp({
      apiKeys: ['sk-right-key-0000'],
      authFailureLimit: limit,
      trustProxy: ['10.0.0.0/8', '::1'],
    });
    // The client wrote "1.1.1.1" itself; the proxy appended the address it saw.
    expect(await failAuth(app, '10.0.0.1', { 'X-Forwarded-For': '1.1.1.1, 198.51.100.1' }, 4)).toBe(429);
    // Another client behind the same proxy is not locked out, whatever it writes to the left.
    expect(await failAuth(app, '10.0.0.1', { 'X-Forwarded-For': '198.51.100.2' }, 1)).toBe(401);
    expect(await failAuth(app, '::ffff:10.0.0.1', { 'X-Forwarded-For': '198.51.100.1, 10.0.0.9' }, 1)).toBe(
      429,
    );
    // Forwarded is not read unless configured: the proxy's own address counts.
    expect(await failAuth(app, '::1', { Forwarded: 'for=198.51.100.3' }, 3)).toBe(401);
    expect(await failAuth(app, '::1', { Forwarded: 'for=198.51.100.4' }, 1)).toBe(429);
  });

  it('{ header: "forwarded" } reads RFC 7239 Forwarded (quoted, bracketed, with ports) and ignores X-Forwarded-For', async () => {
    const { app } = testApp({
      apiKeys: ['sk-right-key-0000'],
      authFailureLimit: limit,
      trustProxy: { addresses: ['10.0.0.1'], header: 'forwarded' },
    });
    expect(
      await failAuth(
        app,
        '10.0.0.1',
        { Forwarded: 'for="[2001:db8::1]:4711";proto=https', 'X-Forwarded-For': '1.1.1.1' },
        4,
      ),
    ).toBe(429);
    expect(await failAuth(app, '10.0.0.1', { Forwarded: 'for=192.0.2.60:80, for=10.0.0.1' }, 1)).toBe(401);
  });

  it('an IPv6 client counts by its /64: a new address in the same /64 does not start afresh', async () => {
    const { app } = testApp({ apiKeys: ['sk-right-key-0000'], authFailureLimit: limit });
    // One host rotating through its /64 (here three spellings and three addresses of it).
    for (const address of ['2001:db8:1:2::1', '2001:0db8:0001:0002::2', '2001:db8:1:2:ffff:ffff:ffff:ffff'])
      await failAuth(app, address, {}, 1);
    expect(await failAuth(app, '2001:db8:1:2::abcd', {}, 1)).toBe(429);
    // Another /64 is another client.
    expect(await failAuth(app, '2001:db8:1:3::1', {}, 1)).toBe(401);
    // The same through a trusted proxy's header.
    const proxied = testApp({
      apiKeys: ['sk-right-key-0000'],
      authFailureLimit: limit,
      trustProxy: ['10.0.0.1'],
    });
    for (let i = 1; i <= 3; i++)
      await failAuth(proxied.app, '10.0.0.1', { 'X-Forwarded-For': `2001:db8:9:9::${i}` }, 1);
    expect(await failAuth(proxied.app, '10.0.0.1', { 'X-Forwarded-For': '2001:db8:9:9::99' }, 1)).toBe(429);
    expect(await failAuth(proxied.app, '10.0.0.1', { 'X-Forwarded-For': '2001:db8:9:a::1' }, 1)).toBe(401);
  });

  it('addressKey: IPv4 as is, IPv6 by its /64 in one spelling', () => {
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1');
    expect(addressKey('2001:DB8:0001:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(addressKey('1:2:3:4:5:6:7:8')).toBe('1:2:3:4::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('unknown')).toBe('unknown');
  });

  it('parses the headers and refuses an entry that is not an address or a range', () => {
    expect(forwardedAddresses('1.1.1.1, 192.0.2.1:8080 ,[::1]:80', 'x-forwarded-for')).toEqual([
      '1.1.1.1',
      '192.0.2.1',
      '::1',
    ]);
    expect(forwardedAddresses('for=_hidden, For="[2001:db8::1]";proto=http, by=x', 'forwarded')).toEqual([
      '_hidden',
      '2001:db8::1',
    ]);
    expect(() => trustedProxies(['10.0.0.0/33'])).toThrow(
      /"10.0.0.0\/33" is not an IP address or a CIDR range/,
    );
    expect(() => trustedProxies(['proxy.local'])).toThrow(/e\.g\. 127\.0\.0\.1/);
    expect(() => testApp({ trustProxy: ['not-an-address'] })).toThrow(/trustProxy: "not-an-address"/);
  });
});
