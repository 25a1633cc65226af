import type {
  AnalyticsStore,
  AuditLog,
  FileStore,
  HandoffEvent,
  HandoffQueue,
  SessionStore,
  VersionStore,
} from '@treeagent/core/adapter';
import { describe, expect, it } from 'vitest';
import { PersonalData, userReference } from '../analytics/personal-data.js';
import type { SessionTokens } from '../auth/session-tokens.js';
import type { HandoffWebhookOptions } from '../handoff/handoff-webhook.js';
import { operatorDirectory } from '../operators/operator-accounts.js';
import { createSession, postMessage, testAgent, testApp } from './fixtures.js';
import { loginOperator, testOperatorAccounts } from './operators.js';
import { webhookReceiver } from './webhook-receiver.js';

/** The stores of one backend (memory, SQLite, PostgreSQL) a personal data request reads and clears. */
export interface PersonalDataStoresFixture {
  sessionStore: SessionStore;
  tokens: SessionTokens;
  auditLog: AuditLog;
  handoffQueue: HandoffQueue;
  fileStore?: FileStore;
  /** Whether the session store keeps turn facts (`analytics()`): memory does not. */
  keepsFacts: boolean;
  /** The backend's version store (docs/versions.md): the sessions' pinned tree versions. */
  versions: VersionStore;
  dispose(): Promise<void>;
}

type App = ReturnType<typeof testApp>['app'];

async function createFor(app: App, userId?: string): Promise<{ sessionId: string; token: string }> {
  if (userId === undefined) return createSession(app);
  const response = await app.request('/api/v1/sessions', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as { sessionId: string; token: string };
}

async function upload(
  app: App,
  session: { sessionId: string; token: string },
  name: string,
): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob(['never mentioned in a message'], { type: 'text/plain' }), name);
  const response = await app.request(`/api/v1/sessions/${session.sessionId}/files`, {
    method: 'POST',
    headers: { 'X-Session-Token': session.token },
    body: form,
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

function handoffEvent(id: string, sessionId: string): HandoffEvent {
  return {
    id,
    type: 'handoff.started',
    at: '2026-11-03T10:00:00.000Z',
    sessionId,
    queue: 'support',
    reason: 'asked for a person',
    summary: `the user's own words (${id})`,
  };
}

/** The app over a fixture's stores, with operators; `webhook` when the handoff webhook is on. */
async function appOver(stores: PersonalDataStoresFixture, webhook?: HandoffWebhookOptions) {
  const agent = testAgent({
    sessionStore: stores.sessionStore,
    ...(stores.fileStore ? { fileStore: stores.fileStore } : {}),
  });
  const { app } = testApp({
    agent,
    sessionTokens: stores.tokens,
    operators: { directory: operatorDirectory(await testOperatorAccounts()), auditLog: stores.auditLog },
    handoff: { queue: stores.handoffQueue, ...(webhook ? { webhook } : {}) },
  });
  return { agent, app };
}

/**
 * One user's data on request, end to end over a backend's real stores (docs/privacy.md): sessions
 * created for a `userId` through the API are exported whole (history, turn facts, handoff notes, audit
 * entries) and deleted everywhere, other users' untouched, each request audited without the user id.
 */
export function describePersonalData(name: string, open: () => Promise<PersonalDataStoresFixture>): void {
  describe(`personal data requests: ${name}`, () => {
    it("exports and deletes every session of a user, and only theirs, audited by the user's reference", async () => {
      const stores = await open();
      try {
        const { app } = await appOver(stores);
        const user = 'crm:4711';
        const first = await createFor(app, user);
        const second = await createFor(app, user);
        const other = await createFor(app, 'crm:4712');
        const anonymous = await createFor(app);
        for (const session of [first, second, other, anonymous])
          expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);
        expect((await postMessage(app, second, { message: 'story' })).status).toBe(200);
        await stores.handoffQueue.put({
          sessionId: first.sessionId,
          status: 'closed',
          queue: 'support',
          reason: 'asked for a person',
          summary: null,
          since: '2026-11-03T10:00:00.000Z',
          operator: null,
          claimedAt: null,
          lastUserMessageAt: null,
          closedAt: '2026-11-03T10:05:00.000Z',
          outcome: 'closed',
          notes: [
            { at: '2026-11-03T10:01:00.000Z', operator: { id: 'bruno', name: 'Bruno' }, text: 'rang back' },
          ],
        });

        const admin = {
          'X-Operator-Token': await loginOperator(app, 'anna'),
          'Content-Type': 'application/json',
        };
        const operator = {
          'X-Operator-Token': await loginOperator(app, 'bruno'),
          'Content-Type': 'application/json',
        };
        const post = (path: 'export' | 'delete', headers: Record<string, string>, body: unknown) =>
          app.request(`/api/v1/personal-data/${path}`, {
            method: 'POST',
            headers,
            body: JSON.stringify(body),
          });
        expect((await post('export', operator, { userId: user })).status).toBe(403);
        expect((await post('delete', operator, { userId: user })).status).toBe(403);
        expect((await post('export', admin, { userId: 'not a reference!' })).status).toBe(400);
        expect((await post('export', admin, {})).status).toBe(400);

        const response = await post('export', admin, { userId: user });
        expect(response.status, await response.clone().text()).toBe(200);
        expect(response.headers.get('cache-control')).toBe('no-store');
        const exported = (await response.json()) as {
          userId: string;
          sessions: {
            sessionId: string;
            found: boolean;
            createdAt: string | null;
            history: { content: string }[];
            facts: { message: string }[];
            handoff: { notes: { text: string }[] } | null;
            audit: { action: string }[];
          }[];
        };
        expect(exported.userId).toBe(user);
        expect(exported.sessions.map((session) => session.sessionId).sort()).toEqual(
          [first.sessionId, second.sessionId].sort(),
        );
        const byId = new Map(exported.sessions.map((session) => [session.sessionId, session]));
        const secondExport = byId.get(second.sessionId)!;
        expect(secondExport.found).toBe(true);
        expect(secondExport.createdAt).toMatch(/^\d{4}-/);
        expect(secondExport.history.map((entry) => entry.content)).toEqual(
          expect.arrayContaining(['hello', 'story']),
        );
        expect(secondExport.facts.map((fact) => fact.message)).toEqual(
          stores.keepsFacts ? ['hello', 'story'] : [],
        );
        expect(byId.get(first.sessionId)!.handoff?.notes.map((note) => note.text)).toEqual(['rang back']);
        expect(secondExport.audit.map((entry) => entry.action)).toContain('personal-data.export');

        const deletion = await post('delete', admin, { userId: user });
        expect(deletion.status, await deletion.clone().text()).toBe(200);
        expect(((await deletion.json()) as { deleted: string[] }).deleted.sort()).toEqual(
          [first.sessionId, second.sessionId].sort(),
        );
        const analytics = (stores.sessionStore as { analytics?: () => AnalyticsStore }).analytics?.();
        for (const session of [first, second]) {
          expect(await stores.sessionStore.load(session.sessionId)).toBeNull();
          expect(await stores.sessionStore.history(session.sessionId)).toEqual([]);
          if (analytics) expect(await analytics.turns(session.sessionId)).toEqual([]);
          expect(await stores.tokens.find(session.sessionId)).toBeNull();
          expect(await stores.handoffQueue.get(session.sessionId)).toBeNull();
          // Its token no longer opens anything.
          expect((await postMessage(app, session, { message: 'hello' })).status).toBe(404);
        }
        expect(await stores.tokens.userSessions!(user)).toEqual([]);
        for (const session of [other, anonymous]) {
          expect(await stores.sessionStore.load(session.sessionId)).not.toBeNull();
          if (analytics) expect(await analytics.turns(session.sessionId)).toHaveLength(1);
          expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);
        }
        const again = (await (await post('export', admin, { userId: user })).json()) as {
          sessions: unknown[];
        };
        expect(again.sessions).toEqual([]);

        // Audited: who, what, the user's reference and counts — never the user id or what was said.
        const audit = await stores.auditLog.list({ action: 'personal-data.delete' });
        expect(audit.map((entry) => [entry.actorId, entry.sessionId])).toEqual(
          expect.arrayContaining([
            ['anna', null],
            ['anna', first.sessionId],
            ['anna', second.sessionId],
          ]),
        );
        expect(audit.find((entry) => entry.sessionId === null)!.detail).toEqual({
          user: userReference(user),
          sessions: 2,
        });
        const everything = JSON.stringify(await stores.auditLog.list({ limit: 1000 }));
        expect(everything).not.toContain(user);
        expect(everything).not.toContain('hello');
      } finally {
        await stores.dispose();
      }
    });

    it("deletes the tree versions the user's sessions were pinned to: through the server's agent, and by the stores alone (the CLI)", async () => {
      const stores = await open();
      // Sessions pin their version in the backend's store on their first turn, as serve --env does.
      const agent = testAgent({
        sessionStore: stores.sessionStore,
        sessionTrees: {
          treeFor: async (sessionId) => {
            await stores.versions.pinSession('test-shop', sessionId, 'aaaaaaaaaaaa');
            return null;
          },
          forget: (sessionIds) => stores.versions.forgetSessions(sessionIds),
        },
      });
      const { app } = testApp({
        agent,
        sessionTokens: stores.tokens,
        operators: { directory: operatorDirectory(await testOperatorAccounts()), auditLog: stores.auditLog },
        handoff: { queue: stores.handoffQueue },
      });
      try {
        const mine = [await createFor(app, 'crm:4711'), await createFor(app, 'crm:4711')];
        const other = await createFor(app, 'crm:4712');
        const cliUser = await createFor(app, 'crm:4713');
        for (const session of [...mine, other, cliUser])
          expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);
        const pinned = (sessionId: string) => stores.versions.sessionVersion('test-shop', sessionId);
        expect(await pinned(mine[0]!.sessionId)).toBe('aaaaaaaaaaaa');
        const deletion = await app.request('/api/v1/personal-data/delete', {
          method: 'POST',
          headers: {
            'X-Operator-Token': await loginOperator(app, 'anna'),
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ userId: 'crm:4711' }),
        });
        expect(deletion.status, await deletion.clone().text()).toBe(200);
        for (const session of mine) expect(await pinned(session.sessionId)).toBeNull();
        expect(await pinned(other.sessionId)).toBe('aaaaaaaaaaaa');
        // The CLI deletes by the stores alone, with no agent: the version store is one of them.
        await new PersonalData({ ...stores, versions: stores.versions }).delete(
          { userId: 'crm:4713' },
          { id: 'cli:test', role: 'admin' },
        );
        expect(await pinned(cliUser.sessionId)).toBeNull();
        expect(await pinned(other.sessionId)).toBe('aaaaaaaaaaaa');
      } finally {
        await app.shutdown();
        await stores.dispose();
      }
    });

    it('without a webhook now, the deliveries an earlier configuration left are exported and deleted too', async () => {
      const stores = await open();
      const { agent, app } = await appOver(stores);
      try {
        const user = 'crm:4711';
        const mine = await createFor(app, user);
        const other = await createFor(app, 'crm:4712');
        const outbox = agent.sessionStore.handoffOutbox!();
        await outbox.add([handoffEvent('ev-mine-left', mine.sessionId)], new Date());
        await outbox.add([handoffEvent('ev-other-left', other.sessionId)], new Date());
        const admin = {
          'X-Operator-Token': await loginOperator(app, 'anna'),
          'Content-Type': 'application/json',
        };
        const exported = (await (
          await app.request('/api/v1/personal-data/export', {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ userId: user }),
          })
        ).json()) as { sessions: { webhookDeliveries: { event: { id: string } }[] }[] };
        expect(exported.sessions[0]!.webhookDeliveries.map((delivery) => delivery.event.id)).toEqual([
          'ev-mine-left',
        ]);
        const deletion = await app.request('/api/v1/personal-data/delete', {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ userId: user }),
        });
        expect(deletion.status, await deletion.clone().text()).toBe(200);
        expect(await outbox.sessionDeliveries([mine.sessionId])).toEqual([]);
        expect((await outbox.sessionDeliveries([other.sessionId])).map((d) => d.event.id)).toEqual([
          'ev-other-left',
        ]);
      } finally {
        await app.shutdown();
        await stores.dispose();
      }
    });

    it("a messaging channel's user: their channel identities, messages, outbox rows and receipts are exported and deleted, audited by reference", async () => {
      const stores = await open();
      const { agent, app } = await appOver(stores);
      try {
        const channels = agent.sessionStore.channelStore!();
        const direct = { channel: 'telegram', conversationId: '555', userId: '77' };
        const group = { channel: 'telegram', conversationId: '-900', userId: '77' };
        const someoneElse = { channel: 'telegram', conversationId: '556', userId: '78' };
        const sessions: string[] = [];
        for (const [index, conversation] of [direct, group, someoneElse].entries()) {
          const sessionId = await channels.sessionOf(conversation, `ch-privacy-${index}`, new Date());
          sessions.push(sessionId);
          await agent.send(sessionId, 'hello', {
            inbound: { channel: 'telegram', messageId: `update-${index}` },
            replyTo: conversation,
          });
        }
        // A message of the user still waiting in the inbox, one given up, and another user's.
        const inbox = channels.inbox!();
        const waiting = (messageId: string, index: number, text: string) => ({
          channel: 'telegram',
          messageId,
          sessionId: sessions[index]!,
          conversation: [direct, group, someoneElse][index]!,
          text,
          selectedOption: null,
          attachments: [],
        });
        await inbox.add(waiting('update-9', 0, 'my address is Via Roma 1'), new Date());
        await inbox.add(waiting('update-10', 1, 'my phone is 333 1234567'), new Date());
        await inbox.lease(new Date(), 10, 60_000);
        await inbox.failed('telegram', 'update-10', 'the model did not answer', null, new Date());
        await inbox.add(waiting('update-11', 2, 'not theirs'), new Date());
        const admin = {
          'X-Operator-Token': await loginOperator(app, 'anna'),
          'Content-Type': 'application/json',
        };
        const post = (path: 'export' | 'delete', body: unknown) =>
          app.request(`/api/v1/personal-data/${path}`, {
            method: 'POST',
            headers: admin,
            body: JSON.stringify(body),
          });
        expect((await post('export', { channelUser: { channel: 'Telegram!', userId: '77' } })).status).toBe(
          400,
        );
        const response = await post('export', { channelUser: { channel: 'telegram', userId: '77' } });
        expect(response.status, await response.clone().text()).toBe(200);
        const exported = (await response.json()) as {
          sessions: {
            sessionId: string;
            found: boolean;
            history: { role: string; content: string }[];
            channelIdentity: { conversation: unknown } | null;
            channelDeliveries: { id: string; payload: { text?: string } }[];
            channelInbox: { messageId: string; text: string; status: string }[];
          }[];
        };
        expect(exported.sessions.map((session) => session.sessionId)).toEqual([sessions[0], sessions[1]]);
        const [first] = exported.sessions;
        expect(first!.found).toBe(true);
        expect(first!.channelIdentity?.conversation).toEqual(direct);
        expect(first!.history.filter((entry) => entry.role === 'user').map((entry) => entry.content)).toEqual(
          ['hello'],
        );
        // The answer still in the outbox (nothing sends in this test) is the user's data too.
        expect(first!.channelDeliveries.map((delivery) => delivery.id)).toEqual(['telegram:update-0:0']);
        // What the user wrote that has not run yet (or was given up) is theirs too.
        expect(exported.sessions.map((session) => session.channelInbox)).toEqual([
          [
            expect.objectContaining({
              messageId: 'update-9',
              text: 'my address is Via Roma 1',
              status: 'pending',
            }),
          ],
          [
            expect.objectContaining({
              messageId: 'update-10',
              text: 'my phone is 333 1234567',
              status: 'failed',
            }),
          ],
        ]);

        const deletion = await post('delete', { channelUser: { channel: 'telegram', userId: '77' } });
        expect(deletion.status, await deletion.clone().text()).toBe(200);
        expect(((await deletion.json()) as { deleted: string[] }).deleted).toEqual([
          sessions[0],
          sessions[1],
        ]);
        expect(await channels.sessionsOfUser('telegram', '77')).toEqual([]);
        expect(await channels.sessionData([sessions[0]!, sessions[1]!])).toEqual({
          identities: [],
          deliveries: [],
        });
        expect(await agent.sessionStore.load(sessions[0]!)).toBeNull();
        expect(await agent.sessionStore.hasReceipt!({ channel: 'telegram', messageId: 'update-0' })).toBe(
          false,
        );
        // The other user's conversation is untouched.
        expect(await channels.sessionsOfUser('telegram', '78')).toEqual([sessions[2]]);
        expect((await channels.sessionData([sessions[2]!])).deliveries).toHaveLength(1);
        expect((await inbox.sessionEntries(sessions)).map((entry) => entry.messageId)).toEqual(['update-11']);
        expect(await inbox.failures()).toEqual([]);
        // Audited by the user's reference, never the platform's id.
        const audit = await stores.auditLog.list({ limit: 10 });
        const request = audit.find(
          (entry) => entry.action === 'personal-data.delete' && entry.sessionId === null,
        );
        expect(request?.detail).toMatchObject({
          channelUser: `telegram:${userReference('77')}`,
          sessions: 2,
        });
      } finally {
        await app.shutdown();
        await stores.dispose();
      }
    });

    it('exports every upload and webhook delivery of the user; after the deletion an admin retry sends nothing of theirs', async () => {
      const stores = await open();
      // The helpdesk refuses every delivery (a final 404): each becomes a dead letter.
      const helpdesk = await webhookReceiver(() => 404);
      const { agent, app } = await appOver(stores, {
        url: helpdesk.url,
        secret: 'a-shared-webhook-secret',
        pollMs: 20,
      });
      try {
        const user = 'crm:4711';
        const mine = await createFor(app, user);
        const other = await createFor(app, 'crm:4712');
        // An upload no message refers to: the session's record does not name it.
        const fileId = await upload(app, mine, 'unreferenced.txt');
        const outbox = agent.sessionStore.handoffOutbox!();
        await outbox.add([handoffEvent('ev-mine-dead', mine.sessionId)], new Date());
        await outbox.add([handoffEvent('ev-other-dead', other.sessionId)], new Date());
        await expect.poll(async () => (await outbox.counts()).dead, { timeout: 5000 }).toBe(2);
        // Not due for an hour: still pending at the deletion.
        await outbox.add([handoffEvent('ev-mine-pending', mine.sessionId)], new Date(Date.now() + 3_600_000));

        const admin = {
          'X-Operator-Token': await loginOperator(app, 'anna'),
          'Content-Type': 'application/json',
        };
        const exported = (await (
          await app.request('/api/v1/personal-data/export', {
            method: 'POST',
            headers: admin,
            body: JSON.stringify({ userId: user }),
          })
        ).json()) as {
          sessions: {
            files: { id: string; name: string }[];
            webhookDeliveries: { status: string; event: { id: string; summary: string } }[];
          }[];
        };
        const [session] = exported.sessions;
        expect(session!.files.map((file) => [file.id, file.name])).toEqual([[fileId, 'unreferenced.txt']]);
        expect(
          session!.webhookDeliveries.map((delivery) => [delivery.event.id, delivery.status]).sort(),
        ).toEqual([
          ['ev-mine-dead', 'dead'],
          ['ev-mine-pending', 'pending'],
        ]);

        const deletion = await app.request('/api/v1/personal-data/delete', {
          method: 'POST',
          headers: admin,
          body: JSON.stringify({ userId: user }),
        });
        expect(deletion.status, await deletion.clone().text()).toBe(200);
        expect(await outbox.sessionDeliveries([mine.sessionId])).toEqual([]);
        expect(await stores.fileStore?.metadata(fileId)).toBeFalsy();

        const sentBefore = helpdesk.received.length;
        const retry = (id: string) =>
          app.request(`/api/v1/operator/webhook/dead-letters/${id}/retry`, {
            method: 'POST',
            headers: admin,
          });
        expect((await retry('ev-mine-dead')).status).toBe(404);
        expect((await retry('ev-other-dead')).status).toBe(202);
        await expect.poll(() => helpdesk.received.length, { timeout: 5000 }).toBe(sentBefore + 1);
        const sentAfter = helpdesk.received
          .slice(sentBefore)
          .map((hook) => (JSON.parse(hook.body) as HandoffEvent).sessionId);
        expect(sentAfter).toEqual([other.sessionId]);
        const letters = (await (
          await app.request('/api/v1/operator/webhook/dead-letters', { headers: admin })
        ).json()) as { deadLetters: { sessionId: string }[] };
        expect(letters.deadLetters.map((letter) => letter.sessionId)).not.toContain(mine.sessionId);
      } finally {
        await app.shutdown();
        await helpdesk.close();
        await stores.dispose();
      }
    });

    it('a session is created for a user only with a valid reference (400 says what is allowed)', async () => {
      const stores = await open();
      try {
        const { app } = testApp({
          agent: testAgent({ sessionStore: stores.sessionStore }),
          sessionTokens: stores.tokens,
        });
        for (const userId of ['', 'a b', 'x'.repeat(129), 42]) {
          const response = await app.request('/api/v1/sessions', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ userId }),
          });
          expect(response.status, JSON.stringify(userId)).toBe(400);
        }
        const bad = await app.request('/api/v1/sessions', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ userId: 'a b' }),
        });
        expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/userId/);
        expect(await stores.tokens.userSessions!('a b')).toEqual([]);
      } finally {
        await stores.dispose();
      }
    });
  });
}
