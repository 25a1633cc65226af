import type { BrowserContext, Page } from 'playwright-core';

/**
 * Makes every turn's stream (`POST …/messages` answered with server-sent events) in the pages of
 * `context` stay open after its last event, until `release(page)`: what a server does while it
 * still frees the session after the answer (PostgreSQL's lock), stretched so a test can act in that
 * moment. The events themselves pass through as they come. Wraps the page's `fetch` before any of
 * its scripts run (a test's instrument, not the product's path).
 */
export async function holdTurnStreams(
  context: BrowserContext,
): Promise<{ release(page: Page): Promise<void> }> {
  await context.addInitScript(() => {
    const scope = globalThis as unknown as {
      fetch: typeof fetch;
      __releaseTurnStreams: () => void;
    };
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    scope.__releaseTurnStreams = release;
    const original = scope.fetch.bind(globalThis);
    scope.fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await original(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const events = response.headers.get('Content-Type')?.includes('text/event-stream');
      if (!url.endsWith('/messages') || !events || !response.body) return response;
      const reader = response.body.getReader();
      const held = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const { value, done } = await reader.read();
          if (!done) return controller.enqueue(value);
          await released;
          controller.close();
        },
      });
      return new Response(held, { status: response.status, headers: response.headers });
    };
  });
  return {
    release: (page) => page.evaluate('globalThis.__releaseTurnStreams()'),
  };
}
