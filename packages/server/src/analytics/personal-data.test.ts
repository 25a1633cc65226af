import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySessionStore } from '@treeagent/core';
import { InMemoryAuditLog, InMemoryHandoffQueue, InMemoryVersionStore } from '@treeagent/core/adapter';
import { openSqlite } from '@treeagent/sqlite';
import { describe, expect, it } from 'vitest';
import { InMemorySessionTokens } from '../auth/session-tokens.js';
import { openAiEngineSessionId } from '../openai/chat-session.js';
import { operatorDirectory } from '../operators/operator-accounts.js';
import { describePersonalData } from '../test-support/describe-personal-data.js';
import { testAgent, testApp } from '../test-support/fixtures.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';
import { userReference } from './personal-data.js';

describePersonalData('in memory', async () => ({
  sessionStore: new InMemorySessionStore(),
  tokens: new InMemorySessionTokens(),
  auditLog: new InMemoryAuditLog(),
  handoffQueue: new InMemoryHandoffQueue(),
  keepsFacts: false,
  versions: new InMemoryVersionStore(),
  dispose: async () => {},
}));

describePersonalData('SQLite (openSqlite: one file, real stores)', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-personal-data-'));
  const stores = openSqlite(directory);
  return {
    sessionStore: stores.sessionStore,
    tokens: stores.sessionTokens,
    auditLog: stores.auditLog,
    handoffQueue: stores.handoffQueue,
    fileStore: stores.fileStore,
    keepsFacts: true,
    versions: stores.versionStore,
    dispose: async () => {
      await stores.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});

describe('OpenAI-compatible conversations and personal data (docs/privacy.md)', () => {
  const email = 'oaiuser.person@example.com';
  const complete = (app: ReturnType<typeof testApp>['app'], user: string) =>
    app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer sk-one' },
      body: JSON.stringify({ model: 'test-shop', messages: [{ role: 'user', content: 'hello' }], user }),
    });

  it('the stored session id holds no user id; the admin deletes it by that id and the audit log holds no user id', async () => {
    const auditLog = new InMemoryAuditLog();
    const sessionStore = new InMemorySessionStore();
    const { app } = testApp({
      agent: testAgent({ sessionStore }),
      apiKeys: ['sk-one'],
      operators: { directory: operatorDirectory(await testOperatorAccounts()), auditLog },
    });
    try {
      const first = await complete(app, email);
      expect(first.status).toBe(200);
      // The client's own id comes back to it; the store keys the conversation by a keyed hash.
      expect(first.headers.get('x-session-id')).toBe(email);
      const engineId = openAiEngineSessionId('sk-one', email);
      expect(engineId).toMatch(/^openai:k:[0-9a-f]{16}:u:[0-9a-f]{40}$/);
      expect(await complete(app, email)).toHaveProperty('status', 200);
      expect(await sessionStore.history(engineId)).toHaveLength(4);

      const key = { Authorization: 'Bearer sk-one' };
      const deletion = await app.request('/api/v1/personal-data/delete', {
        method: 'POST',
        headers: {
          ...key,
          'X-Operator-Token': await loginOperator(app, 'anna', key),
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ sessionIds: [engineId] }),
      });
      expect(deletion.status, await deletion.clone().text()).toBe(200);
      expect(await deletion.json()).toMatchObject({ deleted: [engineId] });
      expect(await sessionStore.history(engineId)).toEqual([]);
      const audit = JSON.stringify(await auditLog.list({ limit: 1000 }));
      expect(audit).toContain('personal-data.delete');
      expect(audit).not.toContain('oaiuser');
    } finally {
      await app.shutdown();
    }
  });

  it('a session an earlier server stored under the client id is accepted and audited by reference', async () => {
    const auditLog = new InMemoryAuditLog();
    const legacy = `openai:k:0123456789abcdef:${email}`;
    const { app } = testApp({
      operators: { directory: operatorDirectory(await testOperatorAccounts()), auditLog },
    });
    try {
      const deletion = await app.request('/api/v1/personal-data/delete', {
        method: 'POST',
        headers: { 'X-Operator-Token': await loginOperator(app, 'anna'), 'Content-Type': 'application/json' },
        body: JSON.stringify({ sessionIds: [legacy, 'not a session id'] }),
      });
      expect(deletion.status).toBe(400);
      const accepted = await app.request('/api/v1/personal-data/delete', {
        method: 'POST',
        headers: { 'X-Operator-Token': await loginOperator(app, 'anna'), 'Content-Type': 'application/json' },
        body: JSON.stringify({ sessionIds: [legacy, 'telegram:chat.42'] }),
      });
      expect(accepted.status, await accepted.clone().text()).toBe(200);
      const entries = await auditLog.list({ limit: 1000 });
      expect(entries.map((entry) => entry.sessionId)).toContain(
        `openai:k:0123456789abcdef:ref:${userReference(email)}`,
      );
      expect(JSON.stringify(entries)).not.toContain('oaiuser');
    } finally {
      await app.shutdown();
    }
  });
});
