import {
  describeCallbackRequests,
  describeCannedResponses,
  describeChannelInbox,
  describeChannelStore,
  describeEventBus,
  describeHandoffOutbox,
  describeHandoffQueue,
  describeOperatorRouting,
  describeOperatorStores,
  describeSatisfactionRatings,
  expectEventsInCommit,
  expectInboxDoneInCommit,
} from '@treeagent/core/conformance';
import { expect, it } from 'vitest';
import { PostgresAuditLog } from './postgres-audit-log.js';
import { PostgresCallbackRequests } from './postgres-callback-requests.js';
import { PostgresCannedResponses } from './postgres-canned-responses.js';
import { PostgresEventBus } from './postgres-event-bus.js';
import { PostgresHandoffQueue } from './postgres-handoff-queue.js';
import { PostgresOperatorRouting } from './postgres-operator-routing.js';
import { PostgresOperatorSessions } from './postgres-operator-sessions.js';
import { PostgresSatisfactionRatings } from './postgres-satisfaction-ratings.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { onSchema, requireDatabase, TEST_DATABASE_URL } from './test-support/database.js';

const connection = TEST_DATABASE_URL;

describeEventBus('PostgresEventBus', async () => {
  await requireDatabase();
  // A channel of its own per fixture: other tests' notifications never reach it.
  const channel = `treeagent_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const opened: PostgresEventBus[] = [];
  const open = async () => {
    const bus = new PostgresEventBus({ connection, channel });
    opened.push(bus);
    await bus.ready();
    return bus;
  };
  return {
    bus: await open(),
    reopen: open,
    dispose: async () => {
      for (const bus of opened) await bus.close();
    },
  };
});

describeHandoffQueue('PostgresHandoffQueue', async () => {
  const { open, dispose } = await onSchema(
    'queue',
    (schema) => new PostgresHandoffQueue({ connection, schema }),
  );
  return { queue: open(), reopen: async () => open(), dispose };
});

describeOperatorRouting('PostgresOperatorRouting', async () => {
  const { open, dispose } = await onSchema(
    'routing',
    (schema) => new PostgresOperatorRouting({ connection, schema }),
  );
  return { routing: open(), reopen: async () => open(), dispose };
});

describeCannedResponses('PostgresCannedResponses', async () => {
  const { open, dispose } = await onSchema(
    'canned',
    (schema) => new PostgresCannedResponses({ connection, schema }),
  );
  return { canned: open(), reopen: async () => open(), dispose };
});

describeSatisfactionRatings('PostgresSatisfactionRatings', async () => {
  const { open, dispose } = await onSchema(
    'satisfaction',
    (schema) => new PostgresSatisfactionRatings({ connection, schema }),
  );
  return { ratings: open(), reopen: async () => open(), dispose };
});

describeCallbackRequests('PostgresCallbackRequests', async () => {
  const { open, dispose } = await onSchema(
    'callbacks',
    (schema) => new PostgresCallbackRequests({ connection, schema }),
  );
  return { callbacks: open(), reopen: async () => open(), dispose };
});

describeOperatorStores('PostgreSQL operator stores', async () => {
  const { open, dispose } = await onSchema('operators', (schema) => {
    const sessions = new PostgresOperatorSessions({ connection, schema });
    const auditLog = new PostgresAuditLog({ connection, schema });
    return {
      sessions,
      auditLog,
      close: async () => void (await Promise.all([sessions.close(), auditLog.close()])),
    };
  });
  return { ...open(), reopen: async () => open(), dispose };
});

describeHandoffOutbox('PostgresHandoffOutbox (sessionStore.handoffOutbox())', async () => {
  const { open, dispose } = await onSchema(
    'outbox',
    (schema) => new PostgresSessionStore({ connection, schema }),
  );
  return {
    outbox: open().handoffOutbox(),
    reopen: async () => open().handoffOutbox(),
    dispose,
  };
});

it('PostgresSessionStore writes a commit’s handoff events in the commit: a refused commit writes none', async () => {
  const { open, dispose } = await onSchema(
    'outbox_commit',
    (schema) => new PostgresSessionStore({ connection, schema }),
  );
  try {
    const store = open();
    await expectEventsInCommit(store, store.handoffOutbox());
    // Without handoffOutbox() a store writes no event (nothing to deliver, nothing kept).
    const other = open();
    const record = { ...(await other.load('outbox-session'))! };
    await other.commit({
      record: { ...record, version: record.version + 1 },
      history: [],
      expectedVersion: record.version,
      handoffEvents: [
        {
          id: 'not-kept',
          type: 'handoff.started',
          at: record.updatedAt,
          sessionId: 'outbox-session',
          queue: 'support',
          reason: 'asked for a person',
          summary: null,
        },
      ],
    });
    expect(await store.handoffOutbox().counts()).toEqual({ pending: 1, dead: 0 });
  } finally {
    await dispose();
  }
});

describeChannelStore('PostgresChannelStore (sessionStore.channelStore())', async () => {
  const { open, dispose } = await onSchema(
    'channels',
    (schema) => new PostgresSessionStore({ connection, schema }),
  );
  return { store: open().channelStore(), reopen: async () => open().channelStore(), dispose };
});

describeChannelInbox('PostgresChannelInbox (sessionStore.channelStore().inbox())', async () => {
  const { open, dispose } = await onSchema(
    'channel_inbox',
    (schema) => new PostgresSessionStore({ connection, schema }),
  );
  return { inbox: open().channelStore().inbox(), reopen: async () => open().channelStore().inbox(), dispose };
});

it('PostgresSessionStore removes the update’s inbox entry in the turn’s commit: a refused commit removes none', async () => {
  const { open, dispose } = await onSchema(
    'inbox_commit',
    (schema) => new PostgresSessionStore({ connection, schema }),
  );
  try {
    await expectInboxDoneInCommit(open());
  } finally {
    await dispose();
  }
});
