import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { Context } from '@treeagent/core';
import { ExactEmbedder } from '@treeagent/core/test';
import { SqliteSessionStore } from '@treeagent/sqlite';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../../core/src/test-support/cleanups-after-each.js';
import { createSession, postMessage, testAgent, testApp, VECTORS } from '../test-support/fixtures.js';

const PERSONAL = {
  email: 'giulia.bianchi@example.it',
  phone: '+39 347 555 1234',
  iban: 'IT60X0542811101000000123456',
  card: '4111 1111 1111 1111',
  codiceFiscale: 'RSSMRA85T10A562S',
  custom: 'CUST-998877',
};
const MESSAGES = [
  `hello, sono ${PERSONAL.email}`,
  `richiamatemi al ${PERSONAL.phone}`,
  `rimborso su ${PERSONAL.iban}`,
  `ho pagato con ${PERSONAL.card}`,
  `il mio codice fiscale è ${PERSONAL.codiceFiscale}, cliente ${PERSONAL.custom}`,
];

const cleanups = cleanupsAfterEach();

describe('no redacted value reaches the database, the logs or the traces', () => {
  it('over real turns through the API, one of which fails quoting the original text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'treeagent-redaction-'));
    const sessionStore = new SqliteSessionStore(join(dir, 'sessions.db'));
    cleanups.push(async () => {
      await sessionStore.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    // The live turn keeps the e-mail (liveTurn): the greeting's before throws an error quoting it.
    const live = MESSAGES[0]!.replace(PERSONAL.email, PERSONAL.email);
    const agent = testAgent({
      sessionStore,
      redaction: { liveTurn: ['email'], patterns: [{ name: 'customer', pattern: /CUST-\d{6}/ }] },
      embedder: new ExactEmbedder({ vectors: { ...VECTORS, [live]: VECTORS.hello! } }),
      greetBefore: ((_self: unknown, context: Context) => {
        throw new Error(`cannot greet "${context.input.original}"`);
      }) as unknown as () => void,
    });
    const { app, logger } = testApp({ agent, tracer: provider.getTracer('test') });
    const session = await createSession(app);
    const statuses = [];
    for (const message of MESSAGES) statuses.push((await postMessage(app, session, { message })).status);
    expect(statuses[0]).toBe(500); // the failed turn (CALLBACK_ERROR, no fallback)
    expect(statuses.slice(1)).toEqual([200, 200, 200, 200]);
    await sessionStore.close();

    const stored = readdirSync(dir)
      .map((name) => readFileSync(join(dir, name)).toString('latin1'))
      .join('\n');
    const logs = JSON.stringify(
      logger.entries.map((entry) => ({
        message: entry.message,
        details:
          entry.details instanceof Error
            ? { message: entry.details.message, stack: entry.details.stack }
            : entry.details,
      })),
    );
    const spans = JSON.stringify(
      exporter
        .getFinishedSpans()
        .map((span) => ({ attributes: span.attributes, status: span.status, events: span.events })),
    );
    expect(logger.entries.length).toBeGreaterThan(0);
    expect(logs).toContain('[email]');
    expect(spans).toContain('[email]');
    for (const [name, value] of Object.entries(PERSONAL)) {
      expect(stored, `${name} in the database`).not.toContain(value);
      expect(stored, `${name} in the database (no spaces)`).not.toContain(value.replace(/\s/g, ''));
      expect(logs, `${name} in the logs`).not.toContain(value);
      expect(spans, `${name} in the traces`).not.toContain(value);
    }
    // What was stored is the placeholders.
    const reopened = new SqliteSessionStore(join(dir, 'sessions.db'));
    cleanups.push(() => reopened.close());
    const facts = await reopened.analytics().turns(session.sessionId);
    expect(facts.map((fact) => fact.message)).toEqual([
      'hello, sono [email]',
      'richiamatemi al [phone]',
      'rimborso su [iban]',
      'ho pagato con [payment-card]',
      'il mio codice fiscale è [codice-fiscale], cliente [customer]',
    ]);
    expect(facts[0]).toMatchObject({ status: 'error', errorCode: 'CALLBACK_ERROR' });
  });
});

describe("the review's examples (issue #36): a value followed by more text is never stored", () => {
  const IBAN = 'IT60X0542811101000000123456';
  const REVIEW = [
    [`${IBAN} e grazie`, '[iban] e grazie'],
    [`accredito su ${IBAN} per il rimborso`, 'accredito su [iban] per il rimborso'],
    ['DE89370400440532013000 e basta', '[iban] e basta'],
    ['IT60 X054 2811 1010 0000 0123 456 e grazie', '[iban] e grazie'],
    ['carta 4111 1111 1111 1111 12/28', 'carta [payment-card] 12/28'],
    ['chiamami al 333 1234567 45 volte', 'chiamami al [phone] 45 volte'],
  ] as const;

  it('neither the SQLite file nor the history nor the turn facts hold them, and the words around are kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'treeagent-redaction-review-'));
    const sessionStore = new SqliteSessionStore(join(dir, 'sessions.db'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { app } = testApp({ agent: testAgent({ sessionStore, redaction: {} }) });
    const session = await createSession(app);
    for (const [message] of REVIEW) {
      expect((await postMessage(app, session, { message })).status, message).toBe(200);
    }
    await sessionStore.close();

    const stored = readdirSync(dir)
      .map((name) => readFileSync(join(dir, name)).toString('latin1'))
      .join('\n');
    for (const value of [
      IBAN,
      'DE89370400440532013000',
      '0123 456',
      '4111 1111 1111 1111',
      '4111111111111111',
      '1234567',
    ]) {
      expect(stored, value).not.toContain(value);
    }
    const reopened = new SqliteSessionStore(join(dir, 'sessions.db'));
    cleanups.push(() => reopened.close());
    const facts = await reopened.analytics().turns(session.sessionId);
    expect(facts.map((fact) => fact.message)).toEqual(REVIEW.map(([, redacted]) => redacted));
    const history = await reopened.history(session.sessionId);
    const userMessages = history.filter((entry) => entry.role === 'user').map((entry) => entry.content);
    expect(userMessages).toEqual(REVIEW.map(([, redacted]) => redacted));
  });
});
