import type { AddressInfo } from 'node:net';
import { InMemoryHandoffQueue } from '@treeagent/core/adapter';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorDirectory } from '../../operators/operator-accounts.js';
import { createSession, postMessage, testApp } from '../../test-support/fixtures.js';
import { handoffAgent, queuedHandoff } from '../../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../../test-support/operators.js';

interface Mail {
  from: string;
  to: string[];
  data: string;
}

/** Escalation e-mails delivered to a real SMTP server (the `smtp-server` package) on loopback. */
describe('escalation of long waits by e-mail (SMTP)', () => {
  const mails: Mail[] = [];
  let smtp: SMTPServer;
  let port: number;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let data = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          data += chunk;
        });
        stream.on('end', () => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('mails the team once when a conversation waits too long, with a note for the operators and nothing the user wrote', async () => {
    const { app } = testApp({
      agent: handoffAgent(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      handoff: {
        escalation: {
          afterMs: 300,
          checkEveryMs: 100,
          email: {
            smtp: { host: '127.0.0.1', port, secure: false, ignoreTLS: true },
            from: 'desk@example.com',
            to: { support: ['lead@example.com', 'oncall@example.com'], default: ['nobody@example.com'] },
            consoleUrl: 'https://agent.example.com',
          },
        },
      },
    });
    try {
      const session = await createSession(app);
      await postMessage(app, session, { message: 'I want a human about my secret order 98765' });
      await expect.poll(() => mails.length, { timeout: 10_000 }).toBe(1);
      const [mail] = mails;
      expect(mail!.from).toBe('desk@example.com');
      expect(mail!.to).toEqual(['lead@example.com', 'oncall@example.com']);
      expect(mail!.data).toMatch(/Subject: \[support\] A conversation has waited \d+ min for an operator/);
      // The body is quoted-printable: undo its soft line breaks before reading it.
      const body = mail!.data.replace(/=\r\n/g, '').replace(/=3D/g, '=');
      expect(body).toContain(`/staff/console?session=${session.sessionId}`);
      expect(mail!.data).not.toContain('98765');
      const bruno = await loginOperator(app, 'bruno');
      const detail = (await (
        await app.request(`/api/v1/operator/handoffs/${session.sessionId}`, {
          headers: { 'X-Operator-Token': bruno },
        })
      ).json()) as { notes: { text: string }[] };
      expect(detail.notes.map((note) => note.text)).toEqual([
        'Escalated: waited longer than 0 min; e-mail sent to 2 recipient(s).',
      ]);
      // Later checks do not mail again.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(mails).toHaveLength(1);
    } finally {
      await app.shutdown({ timeoutMs: 500 });
    }
  });

  it('escalates a waiting conversation behind 1,000 older claimed ones', async () => {
    const queue = new InMemoryHandoffQueue();
    for (let index = 0; index < 1000; index++)
      await queue.put(
        queuedHandoff(index, {
          status: 'claimed',
          operator: { id: 'anna', name: 'Anna' },
          claimedAt: new Date(Date.UTC(2026, 11, 1, 9)).toISOString(),
        }),
      );
    const { app } = testApp({
      agent: handoffAgent(),
      operators: { directory: operatorDirectory(await testOperatorAccounts()) },
      handoff: {
        queue,
        escalation: {
          afterMs: 300,
          checkEveryMs: 100,
          email: {
            smtp: { host: '127.0.0.1', port, secure: false, ignoreTLS: true },
            from: 'desk@example.com',
            to: { support: ['lead@example.com'] },
          },
        },
      },
    });
    const before = mails.length;
    try {
      const session = await createSession(app);
      await postMessage(app, session, { message: 'I want a human' });
      await expect.poll(() => mails.length, { timeout: 10_000 }).toBe(before + 1);
      const notes = (await queue.get(session.sessionId))?.notes.map((note) => note.text);
      expect(notes).toEqual(['Escalated: waited longer than 0 min; e-mail sent to 1 recipient(s).']);
    } finally {
      await app.shutdown({ timeoutMs: 500 });
    }
  });

  it('refuses a non-positive delay, saying which option', () => {
    expect(() =>
      testApp({
        agent: handoffAgent(),
        handoff: { escalation: { afterMs: 0, email: { smtp: {}, from: 'a@example.com', to: [] } } },
      }),
    ).toThrow('handoff.escalation.afterMs must be a number of milliseconds above 0.');
  });
});
