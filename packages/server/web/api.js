/** The JSON API of @treeagent/server, as the page uses it: sessions, messages (SSE), files, tree. */

const SESSION_KEY = 'treeagent.session';
const API_KEY_KEY = 'treeagent.apiKey';

/** An error answered by the server (`{ error: { code, message, details? } }`) or by the network. */
export class ApiError extends Error {
  constructor(status, code, message, details, retryAfter) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.retryAfter = retryAfter;
  }
}

async function errorFrom(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON: described from the status below.
  }
  const error = body && typeof body === 'object' ? body.error : null;
  return new ApiError(
    response.status,
    error?.code ?? `HTTP_${response.status}`,
    error?.message ?? (response.statusText || `The server answered ${response.status}.`),
    error?.details,
    response.headers.get('Retry-After') ?? undefined,
  );
}

function readStorage(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // Storage disabled: the session lasts as long as the page.
  }
}

/**
 * Parses a `text/event-stream` body into `{ event, data }` messages as they arrive.
 * @param {ReadableStream<Uint8Array>} body
 */
export async function* readServerSentEvents(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let boundary = buffer.search(/\r?\n\r?\n/);
      while (boundary !== -1) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
        const message = parseBlock(block);
        if (message) yield message;
        boundary = buffer.search(/\r?\n\r?\n/);
      }
    }
    const message = parseBlock(buffer);
    if (message) yield message;
  } finally {
    reader.releaseLock();
  }
}

function parseBlock(block) {
  let event = 'message';
  const data = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { event, data: data.join('\n') } : null;
}

export class Api {
  constructor(base = '') {
    this.base = base;
    this.apiKey = readStorage(API_KEY_KEY);
    const stored = readStorage(SESSION_KEY);
    try {
      this.session = stored ? JSON.parse(stored) : null;
    } catch {
      this.session = null;
    }
    /** Object URLs of downloaded files, by file id. */
    this.fileUrls = new Map();
  }

  setApiKey(key) {
    this.apiKey = key || null;
    writeStorage(API_KEY_KEY, this.apiKey);
  }

  headers(extra = {}) {
    const headers = { ...extra };
    if (this.apiKey) headers.Authorization = `Bearer ${this.apiKey}`;
    if (this.session) headers['X-Session-Token'] = this.session.token;
    return headers;
  }

  async request(path, init = {}) {
    let response;
    try {
      response = await fetch(this.base + path, { ...init, headers: this.headers(init.headers) });
    } catch (error) {
      if (error?.name === 'AbortError') throw error;
      throw new ApiError(0, 'NETWORK', `The server cannot be reached (${error?.message ?? error}).`);
    }
    if (!response.ok) throw await errorFrom(response);
    return response;
  }

  async json(path, init) {
    return (await this.request(path, init)).json();
  }

  sessionPath(suffix) {
    if (!this.session) throw new ApiError(0, 'NO_SESSION', 'There is no session yet.');
    return `/api/v1/sessions/${encodeURIComponent(this.session.sessionId)}${suffix}`;
  }

  /** `POST /api/v1/sessions`; the id and token are kept in sessionStorage. */
  async createSession() {
    this.session = null;
    const created = await this.json('/api/v1/sessions', { method: 'POST' });
    this.session = { sessionId: created.sessionId, token: created.token };
    writeStorage(SESSION_KEY, JSON.stringify(this.session));
    this.forgetFiles();
    return this.session;
  }

  forgetSession() {
    this.session = null;
    writeStorage(SESSION_KEY, null);
    this.forgetFiles();
  }

  forgetFiles() {
    for (const url of this.fileUrls.values()) URL.revokeObjectURL(url);
    this.fileUrls.clear();
  }

  async history() {
    return (await this.json(this.sessionPath('/history'))).history;
  }

  tree() {
    return this.json('/api/v1/tree');
  }

  route(text, startNodeId) {
    return this.json('/api/v1/route', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(startNodeId === undefined ? { text } : { text, startNodeId }),
    });
  }

  /** Uploads one file (multipart, field `file`) → its `FileMetadata`. */
  async upload(file, signal) {
    const form = new FormData();
    form.append('file', file, file.name);
    return this.json(this.sessionPath('/files'), { method: 'POST', body: form, signal });
  }

  /** Where a file of the conversation is downloaded, or null when the server does not serve it. */
  fileUrl(file) {
    if (file.url) return file.url;
    if (this.session && file.sessionId === this.session.sessionId) {
      return this.sessionPath(`/files/${encodeURIComponent(file.id)}`);
    }
    return null;
  }

  /** An object URL for a file's bytes (the download needs the session token header). */
  async objectUrl(file) {
    const cached = this.fileUrls.get(file.id);
    if (cached) return cached;
    const path = this.fileUrl(file);
    if (!path) throw new ApiError(0, 'NOT_DOWNLOADABLE', `"${file.name}" is not served by this server.`);
    const blob = await (await this.request(path)).blob();
    const url = URL.createObjectURL(blob);
    this.fileUrls.set(file.id, url);
    return url;
  }

  /**
   * Sends a message and yields the turn's events as they stream (`Accept: text/event-stream`).
   * An HTTP error before the stream throws an `ApiError`; a JSON answer becomes one `turn-end`.
   */
  async *send(body, signal) {
    const response = await this.request(this.sessionPath('/messages'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal,
    });
    const type = response.headers.get('Content-Type') ?? '';
    if (!type.includes('text/event-stream')) {
      const output = await response.json();
      yield { type: 'turn-end', output, durationMs: Number.NaN };
      return;
    }
    for await (const message of readServerSentEvents(response.body)) {
      let event;
      try {
        event = JSON.parse(message.data);
      } catch {
        continue;
      }
      if (event && typeof event === 'object') yield { type: message.event, ...event };
    }
  }
}
