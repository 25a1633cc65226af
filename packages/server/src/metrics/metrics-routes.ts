import { Hono } from 'hono';
import type { Services } from '../services.js';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus.js';

/** `GET /metrics`: the server's metrics in the Prometheus text format. */
export function metricsRoutes(services: Services): Hono {
  const routes = new Hono();
  routes.get('/metrics', async (c) => {
    // The queue gauges report the shared queue (every process the same), read at scrape time.
    await services.handoffs.refreshMetrics();
    await services.channels?.refreshMetrics();
    return c.body(services.metrics.render(), 200, { 'Content-Type': PROMETHEUS_CONTENT_TYPE });
  });
  return routes;
}
