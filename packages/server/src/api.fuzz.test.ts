import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSession, postMessage, testApp } from './test-support/fixtures.js';

const KEY = 'sk-fuzz-key';
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
const PATHS = [
  '/api/v1/sessions',
  '/api/v1/sessions/SID/messages',
  '/api/v1/sessions/SID/history',
  '/api/v1/sessions/SID/files',
  '/api/v1/sessions/SID/files/abc',
  '/api/v1/route',
  '/api/v1/tree',
  '/v1/chat/completions',
  '/v1/models',
  '/v1/models/x',
];

const jsonish = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      message: fc.oneof(fc.string(), fc.anything()),
      attachments: fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.anything()),
      selectedOption: fc.anything(),
      clientMetadata: fc.anything(),
      model: fc.oneof(fc.string(), fc.integer()),
      messages: fc.oneof(
        fc.array(
          fc.record({
            role: fc.constantFrom('user', 'system', 'assistant', 'tool', 'x'),
            content: fc.anything(),
          }),
          { maxLength: 3 },
        ),
        fc.anything(),
      ),
      stream: fc.anything(),
      user: fc.anything(),
    },
    { requiredKeys: [] },
  ),
);

const requestArb = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.oneof(
    fc.constantFrom(...PATHS),
    fc.string().map((text) => `/api/v1/${encodeURIComponent(text)}`),
    fc.webPath().map((path) => `/v1${path.startsWith('/') ? path : `/${path}`}`),
  ),
  body: fc.oneof(
    jsonish.map((value) => JSON.stringify(value)),
    fc.string(),
    fc.constant(undefined),
  ),
  contentType: fc.constantFrom(
    'application/json',
    'text/plain',
    'multipart/form-data',
    'application/x-www-form-urlencoded',
    '',
  ),
  accept: fc.constantFrom('application/json', 'text/event-stream', '*/*', ''),
  auth: fc.constantFrom(`Bearer ${KEY}`, 'Bearer nope', 'Basic abc', '', KEY),
  token: fc.oneof(fc.constant('GOOD'), fc.string({ maxLength: 40 })),
});

const token = fc.stringMatching(/^[A-Za-z0-9'()+_,./:=?-]{0,12}$/);
const CRLF = '\r\n';

/**
 * Multipart bodies that are mostly wrong: a boundary that is missing, empty, quoted or different from
 * the body's; parts with odd or missing headers; bodies cut anywhere. Every case reaches the parser.
 */
const multipartArb = fc
  .record({
    declared: fc.oneof(token, fc.constant(undefined), fc.constant('"quoted"'), fc.constant('')),
    used: fc.oneof(token, fc.constant('ZZ')),
    parts: fc.array(
      fc.record({
        disposition: fc.oneof(
          fc.constant('form-data; name="file"; filename="a.txt"'),
          fc.constant('form-data; name="file"'),
          fc.constant('form-data; name="other"; filename="b"'),
          fc.constant('form-data'),
          fc.string({ maxLength: 30 }),
        ),
        type: fc.oneof(
          fc.constant(undefined),
          fc.constantFrom('text/plain', 'application/pdf', ''),
          fc.string({ maxLength: 10 }),
        ),
        content: fc.string({ maxLength: 40 }),
        headerEnd: fc.constantFrom(CRLF + CRLF, CRLF, '\n\n', ''),
      }),
      { maxLength: 3 },
    ),
    closing: fc.constantFrom('--', '', '-', `--${CRLF}`),
    cut: fc.option(fc.nat(200)),
    prefix: fc.constantFrom('', CRLF, `preamble${CRLF}`),
  })
  .map((input) => {
    const contentType = `multipart/form-data${input.declared === undefined ? '' : `; boundary=${input.declared}`}`;
    let body: string = input.prefix;
    for (const part of input.parts) {
      body += `--${input.used}${CRLF}Content-Disposition: ${part.disposition}${CRLF}`;
      if (part.type !== undefined) body += `Content-Type: ${part.type}${CRLF}`;
      body += `${part.headerEnd}${part.content}${CRLF}`;
    }
    body += `--${input.used}${input.closing}`;
    if (input.cut !== null) body = body.slice(0, input.cut);
    return { contentType, body };
  });

describe('file uploads on malformed multipart bodies', () => {
  it('answer 201 or a 4xx JSON error, log nothing, and keep serving', async () => {
    const { app, logger } = testApp();
    const session = await createSession(app);
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(multipartArb, async ({ contentType, body }) => {
        const response = await app.request(`/api/v1/sessions/${session.sessionId}/files`, {
          method: 'POST',
          headers: { 'Content-Type': contentType, 'X-Session-Token': session.token },
          body,
        });
        const text = await response.text();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status !== 201) {
          expect(response.status, `${contentType} ${JSON.stringify(body)} → ${text}`).toBeGreaterThanOrEqual(
            400,
          );
          expect(response.status, `${contentType} ${JSON.stringify(body)} → ${text}`).toBeLessThan(500);
          const error = (JSON.parse(text) as { error: Record<string, unknown> }).error;
          expect(typeof error.code).toBe('string');
          expect(typeof error.message).toBe('string');
        }
      }),
      { numRuns: 300 },
    );
    // Most cases are malformed: the generator reaches the parser's error paths, not only the happy one.
    expect(statuses.get(400) ?? 0).toBeGreaterThan(150);
    expect(logger.entries).toEqual([]);
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);
  }, 60_000);
});

describe('HTTP API and OpenAI endpoint on random requests', () => {
  it('answers errors with a JSON error body and keeps serving valid requests', async () => {
    // Wrong keys are part of the input: failed authentication is not rate-limited here, nor are the
    // hundreds of messages to one session.
    const { app, logger } = testApp({
      apiKeys: [KEY],
      authFailureLimit: false,
      messageLimit: { perSession: false, perAddress: false },
    });
    const auth = { Authorization: `Bearer ${KEY}` };
    const session = await createSession(app, auth);
    await fc.assert(
      fc.asyncProperty(requestArb, async (input) => {
        const headers: Record<string, string> = {};
        if (input.contentType) headers['Content-Type'] = input.contentType;
        if (input.accept) headers.Accept = input.accept;
        if (input.auth) headers.Authorization = input.auth;
        headers['X-Session-Token'] = input.token === 'GOOD' ? session.token : input.token;
        const path = input.path.replace('SID', session.sessionId);
        const hasBody = input.method !== 'GET' && input.body !== undefined;
        const response = await app.request(path, {
          method: input.method,
          headers,
          ...(hasBody ? { body: input.body } : {}),
        });
        const text = await response.text();
        expect(response.status).toBeGreaterThanOrEqual(200);
        expect(response.status).toBeLessThan(600);
        if (response.status >= 400) {
          expect(response.status, `${input.method} ${path} → ${response.status}: ${text}`).toBeLessThan(500);
          const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
          expect(typeof body.error?.code).toBe('string');
          expect(typeof body.error?.message).toBe('string');
        }
        // The app keeps serving a valid request.
        const ok = await postMessage(app, session, { message: 'hello' }, { headers: auth });
        expect(ok.status).toBe(200);
      }),
      { numRuns: 200 },
    );
    // No request above was a server-side failure.
    expect(logger.entries).toEqual([]);
  }, 60_000);
});
