import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors/api-error.js';

/** Host names of the loopback interface: the default allow-list of a server bound to loopback. */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]', '::1', '.localhost'];

/** Whether `hostname` (an interface to listen on) is a loopback address or name. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host) || host.endsWith('.localhost')
  );
}

/** The host name of a `Host` header, lower-cased, without the port. */
function hostName(header: string): string {
  const host = header.trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.replace(/:\d*$/, '');
}

/**
 * Refuses requests whose `Host` header is not in `allowed` with 403 `HOST_NOT_ALLOWED`: a page of
 * another site that rebinds its DNS name to this server's address (DNS rebinding) sends its own
 * name as `Host` and is refused. An entry starting with `.` allows every subdomain of it.
 */
export function allowHosts(allowed: readonly string[]): MiddlewareHandler {
  const exact = new Set(allowed.filter((host) => !host.startsWith('.')).map((host) => host.toLowerCase()));
  const suffixes = allowed.filter((host) => host.startsWith('.')).map((host) => host.toLowerCase());
  return async (c, next) => {
    // The Host header (Node builds the request URL from it; other runtimes put it there too).
    const host = hostName(c.req.header('host') ?? new URL(c.req.url).host);
    if (!exact.has(host) && !suffixes.some((suffix) => host.endsWith(suffix))) {
      throw new ApiError(
        403,
        'HOST_NOT_ALLOWED',
        `The Host "${host.slice(0, 100)}" is not allowed on this server. Open it through one of ${[...exact].join(', ')}, or add the name to the server's allowedHosts (treeagent dev --allowed-host <name>).`,
      );
    }
    await next();
  };
}
