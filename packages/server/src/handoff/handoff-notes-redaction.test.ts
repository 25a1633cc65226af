import { InMemoryAuditLog } from '@treeagent/core/adapter';
import { beforeAll, describe, expect, it } from 'vitest';
import { type OperatorAccount, operatorDirectory } from '../operators/operator-accounts.js';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import { handoffAgent } from '../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';

let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});

describe("an operator's note with the agent's redaction on (docs/privacy.md)", () => {
  it('is stored, shown and exported redacted: the e-mail address and the IBAN are not kept', async () => {
    const agent = handoffAgent({ redaction: {} });
    const { app } = testApp({
      agent,
      operators: { directory: operatorDirectory(accounts), auditLog: new InMemoryAuditLog() },
    });
    const session = await createSession(app);
    await postMessage(app, session, { message: 'I want a human' });
    const anna = await loginOperator(app, 'anna');
    const headers = { 'X-Operator-Token': anna, 'Content-Type': 'application/json' };
    const text = 'Wants a refund to IT60X0542811101000000123456, reply to notes.person@example.com';
    const added = await app.request(`/api/v1/operator/handoffs/${session.sessionId}/notes`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text }),
    });
    expect(added.status).toBe(201);
    const { note } = (await added.json()) as { note: { text: string } };
    expect(note.text).toBe('Wants a refund to [iban], reply to [email]');
    // As the queue keeps it (the conversation's detail reads the stored notes).
    const detail = await app.request(`/api/v1/operator/handoffs/${session.sessionId}`, { headers });
    const stored = JSON.stringify(((await detail.json()) as { notes: unknown[] }).notes);
    expect(stored).toContain('[iban]');
    expect(stored).not.toContain('notes.person@example.com');
    expect(stored).not.toContain('IT60X0542811101000000123456');
  });
});
