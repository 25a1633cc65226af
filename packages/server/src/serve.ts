import type { AddressInfo } from 'node:net';
import { type ServerType, serve as serveNode } from '@hono/node-server';
import { createApp, type ShutdownOptions, type TreeAgentApp } from './app.js';
import type { CreateAppOptions } from './app-options.js';
import { isLoopback, LOOPBACK_HOSTS } from './http/allowed-hosts.js';
import type { DrainResult } from './turns/turn-tracker.js';

/** Options of `serve`: those of `createApp`, where to listen, and how to shut down. */
export interface ServeOptions extends CreateAppOptions {
  /** Port; 0 picks a free one. Default 3000. */
  port?: number;
  /**
   * Interface to listen on. Default `127.0.0.1`; `0.0.0.0` for every interface. On a loopback
   * interface `allowedHosts` defaults to the loopback names (`localhost`, `127.0.0.1`, `[::1]`,
   * `*.localhost`).
   */
  hostname?: string;
  /** Defaults of `close()`. */
  shutdown?: ShutdownOptions;
}

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:3000`. */
  url: string;
  port: number;
  app: TreeAgentApp;
  /** The Node HTTP server. */
  server: ServerType;
  /**
   * Graceful shutdown: new turns get 503 `SHUTTING_DOWN`, turns in flight may finish within
   * `timeoutMs`, the rest are aborted (nothing saved), then the HTTP server closes.
   */
  close(options?: ShutdownOptions): Promise<DrainResult>;
}

/**
 * Starts the HTTP server (Node, through `@hono/node-server`) and begins loading the tree
 * (`GET /ready` turns 200 when it is loaded).
 *
 * @example
 * const server = await serve({ agent, port: 3000, apiKeys: [process.env.API_KEY!] });
 * process.on('SIGTERM', () => server.close());
 */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  const app = createApp({
    ...options,
    ...(options.allowedHosts === undefined && isLoopback(hostname)
      ? { allowedHosts: [...LOOPBACK_HOSTS] }
      : {}),
  });
  const { server, address } = await new Promise<{ server: ServerType; address: AddressInfo }>(
    (resolve, reject) => {
      const server = serveNode({ fetch: app.fetch, port: options.port ?? 3000, hostname }, (address) =>
        resolve({ server, address }),
      );
      server.once('error', reject);
    },
  );
  options.agent.ready().catch(() => {
    // Reported by GET /ready; the first message retries the load.
  });
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<DrainResult> | null = null;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    app,
    server,
    close: (closeOptions) => {
      closing ??= (async () => {
        const result = await app.shutdown({ ...options.shutdown, ...closeOptions });
        await closeServer(server);
        return result;
      })();
      return closing;
    },
  };
}

/** Stops listening, closes idle keep-alive connections, then any connection still open. */
function closeServer(server: ServerType): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    const http = server as { closeIdleConnections?: () => void; closeAllConnections?: () => void };
    http.closeIdleConnections?.();
    setTimeout(() => http.closeAllConnections?.(), 100).unref();
  });
}
