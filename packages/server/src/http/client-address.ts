import type { Context } from 'hono';

/**
 * The client's address from the Node socket (never from headers a client could forge), as a key
 * for per-client limits: `ip:<address>`, or `anonymous` when the runtime exposes no socket.
 */
export function clientAddress(c: Context): string {
  const address = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
    ?.socket?.remoteAddress;
  return address ? `ip:${address}` : 'anonymous';
}
