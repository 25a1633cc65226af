import { TreeAgentError } from '@treeagent/core';
import { decodeHtml } from '../documents/decode-text.js';
import { type AddressPolicy, checkAddress } from './address-guard.js';

/** How the crawler treats each host. */
export interface PolitenessOptions extends AddressPolicy {
  /** Requests in flight at once per host. Default 2. */
  concurrency?: number;
  /** Milliseconds between the starts of two requests to the same host (raised by robots.txt's Crawl-delay). Default 250. */
  delayMs?: number;
  /** Milliseconds before a request is abandoned. Default 15000. */
  timeoutMs?: number;
  /** Largest body read, in bytes; a bigger page is skipped with that reason. Default 5 MiB. */
  maxBytes?: number;
  /** The `User-Agent` header. */
  userAgent: string;
}

/** What a fetch got: after redirects, the final URL. */
export interface FetchedResponse {
  url: string;
  status: number;
  /** 304: the validators sent still match; `body` is empty. */
  notModified: boolean;
  etag: string | null;
  lastModified: string | null;
  contentType: string;
  /** Decoded by the page's charset (header, then `<meta charset>`, then UTF-8). */
  body: string;
}

/** Validators of the copy already stored, sent as `If-None-Match` / `If-Modified-Since`. */
export interface Validators {
  etag?: string | null;
  lastModified?: string | null;
}

const MAX_REDIRECTS = 5;

/**
 * Fetches with Node's fetch, politely: per host at most `concurrency` requests at once and
 * `delayMs` between their starts; every address (redirects included, each followed by hand) is
 * checked against the address policy first; bodies are capped at `maxBytes`.
 */
export class PoliteFetcher {
  readonly #options: PolitenessOptions;
  readonly #hosts = new Map<string, HostGate>();

  constructor(options: PolitenessOptions) {
    this.#options = options;
  }

  /** Raises a host's delay (robots.txt's Crawl-delay), never lowers it. */
  slowDown(host: string, delayMs: number): void {
    const gate = this.#gate(host);
    gate.delayMs = Math.max(gate.delayMs, delayMs);
  }

  /**
   * GETs `url`, following up to 5 redirects; `sameSite` may refuse a redirect's target (the crawl's
   * scope). Network errors and timeouts reject with `INVALID_INPUT` naming the URL.
   */
  async get(
    url: string,
    validators: Validators = {},
    sameSite: (target: URL) => boolean = () => true,
  ): Promise<FetchedResponse> {
    let current = new URL(url);
    for (let hop = 0; ; hop++) {
      await checkAddress(current, this.#options);
      const response = await this.#fetchOnce(current, hop === 0 ? validators : {});
      if (response.status >= 300 && response.status < 400 && response.status !== 304) {
        const location = response.headers.get('location');
        await response.body?.cancel();
        if (!location)
          throw new TreeAgentError(
            'INVALID_INPUT',
            `${current.href} redirects (${response.status}) without a Location.`,
          );
        if (hop >= MAX_REDIRECTS)
          throw new TreeAgentError('INVALID_INPUT', `${url} redirects more than ${MAX_REDIRECTS} times.`);
        const next = new URL(location, current);
        if (!sameSite(next))
          throw new TreeAgentError(
            'INVALID_INPUT',
            `${current.href} redirects to ${next.href}, outside the site.`,
          );
        current = next;
        continue;
      }
      const notModified = response.status === 304;
      const withoutBody = notModified || response.status >= 400;
      if (withoutBody) await response.body?.cancel();
      const contentType = response.headers.get('content-type') ?? '';
      return {
        url: current.href,
        status: response.status,
        notModified,
        etag: response.headers.get('etag'),
        lastModified: response.headers.get('last-modified'),
        contentType,
        body: withoutBody ? '' : decodeHtml(await this.#read(response, current), contentType),
      };
    }
  }

  async #fetchOnce(url: URL, validators: Validators): Promise<Response> {
    const gate = this.#gate(url.host);
    const release = await gate.acquire();
    try {
      const headers: Record<string, string> = {
        'user-agent': this.#options.userAgent,
        accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,*/*;q=0.5',
      };
      if (validators.etag) headers['if-none-match'] = validators.etag;
      if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
      return await fetch(url, {
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.#options.timeoutMs ?? 15_000),
      });
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError'
          ? 'timed out'
          : ((error as { cause?: Error }).cause?.message ?? (error as Error).message);
      throw new TreeAgentError('INVALID_INPUT', `${url.href} could not be fetched: ${reason}.`, {
        cause: error,
      });
    } finally {
      release();
    }
  }

  async #read(response: Response, url: URL): Promise<Uint8Array> {
    const limit = this.#options.maxBytes ?? 5 * 1024 * 1024;
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > limit) {
      await response.body?.cancel();
      throw new TreeAgentError(
        'INVALID_INPUT',
        `${url.href} is ${declared} bytes, over the limit of ${limit} bytes (maxBytes).`,
      );
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    for (let part = await reader?.read(); reader && part && !part.done; part = await reader.read()) {
      size += part.value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw new TreeAgentError(
          'INVALID_INPUT',
          `${url.href} is over the limit of ${limit} bytes (maxBytes).`,
        );
      }
      chunks.push(part.value);
    }
    return Buffer.concat(chunks);
  }

  #gate(host: string): HostGate {
    let gate = this.#hosts.get(host);
    if (!gate) {
      gate = new HostGate(this.#options.concurrency ?? 2, this.#options.delayMs ?? 250);
      this.#hosts.set(host, gate);
    }
    return gate;
  }
}

/** At most `concurrency` holders at once, their starts `delayMs` apart. */
class HostGate {
  delayMs: number;
  readonly #concurrency: number;
  #active = 0;
  #nextStart = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(concurrency: number, delayMs: number) {
    this.#concurrency = Math.max(1, concurrency);
    this.delayMs = delayMs;
  }

  async acquire(): Promise<() => void> {
    // A released slot is handed to the next waiter directly, so no newcomer can take it in between.
    if (this.#active < this.#concurrency) this.#active++;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    const now = Date.now();
    const start = Math.max(now, this.#nextStart);
    this.#nextStart = start + this.delayMs;
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now));
    return () => {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active--;
    };
  }
}
