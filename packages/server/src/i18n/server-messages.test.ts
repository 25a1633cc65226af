import { describe, expect, it } from 'vitest';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import { acceptedLanguages } from './request-language.js';

type Body = { error: { code: string; message: string; userMessage?: string } };

/** A session over its limit of one message a minute; the refusal's body. */
async function refusal(options: { locale?: string; acceptLanguage?: string }): Promise<Body> {
  const { app } = testApp({
    messageLimit: { perSession: { windowMs: 60_000, max: 1 } },
    ...(options.locale ? { locale: options.locale } : {}),
  });
  const session = await createSession(app);
  const headers: Record<string, string> = options.acceptLanguage
    ? { 'Accept-Language': options.acceptLanguage }
    : {};
  expect((await postMessage(app, session, { message: 'hello' }, { headers })).status).toBe(200);
  const refused = await postMessage(app, session, { message: 'hello' }, { headers });
  expect(refused.status).toBe(429);
  return (await refused.json()) as Body;
}

describe("the server's messages for the customer, in the request's language", () => {
  it('says a limit in the language of Accept-Language, keeping the English message for developers', async () => {
    const body = await refusal({ acceptLanguage: 'it-IT,it;q=0.9,en;q=0.5' });
    expect(body.error.userMessage).toMatch(/^Hai inviato troppi messaggi: al massimo 1 ogni 60 secondi\./);
    expect(body.error.message).toMatch(/^Too many messages in this session/);
    expect((await refusal({ acceptLanguage: 'es' })).error.userMessage).toMatch(/^Has enviado demasiados/);
  });

  it("uses the deployment's locale over the request's, and English when neither has catalogs", async () => {
    expect((await refusal({ locale: 'it', acceptLanguage: 'en-US' })).error.userMessage).toMatch(
      /^Hai inviato/,
    );
    expect((await refusal({ acceptLanguage: 'de-DE' })).error.userMessage).toMatch(/^You have sent too many/);
  });

  it('refuses a deployment locale with no catalogs, naming the ones there are', () => {
    expect(() => testApp({ locale: 'de' })).toThrow(
      /"de", a language with no catalogs: use one of en, es, it/,
    );
  });

  it('orders Accept-Language by weight', () => {
    expect(acceptedLanguages('en;q=0.4, it-IT, es;q=0.8, *;q=0.1')).toEqual(['it-IT', 'es', 'en']);
  });
});
