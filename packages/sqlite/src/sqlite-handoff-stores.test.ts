import {
  describeCallbackRequests,
  describeCannedResponses,
  describeChannelInbox,
  describeChannelStore,
  describeHandoffOutbox,
  describeHandoffQueue,
  describeOperatorRouting,
  describeOperatorStores,
  describeSatisfactionRatings,
  expectEventsInCommit,
  expectInboxDoneInCommit,
} from '@treeagent/core/conformance';
import { describe, it } from 'vitest';
import { dataDirectory } from './test-support/data-directory.js';

describeHandoffQueue('SqliteHandoffQueue', async () => {
  const data = dataDirectory('queue');
  return {
    queue: data.open().handoffQueue,
    reopen: async () => data.open().handoffQueue,
    dispose: data.dispose,
  };
});

describeOperatorStores('SQLite operator stores (openSqlite)', async () => {
  const data = dataDirectory('operators');
  const first = data.open();
  return {
    sessions: first.operatorSessions,
    auditLog: first.auditLog,
    reopen: async () => {
      const other = data.open();
      return { sessions: other.operatorSessions, auditLog: other.auditLog };
    },
    dispose: data.dispose,
  };
});

describeHandoffOutbox('SqliteHandoffOutbox (sessionStore.handoffOutbox())', async () => {
  const data = dataDirectory('outbox');
  return {
    outbox: data.open().sessionStore.handoffOutbox(),
    reopen: async () => data.open().sessionStore.handoffOutbox(),
    dispose: data.dispose,
  };
});

describe('SqliteSessionStore with its handoff outbox', () => {
  it('writes a commit’s handoff events in the commit: a refused commit writes none', async () => {
    const data = dataDirectory('outbox-commit');
    try {
      const { sessionStore } = data.open();
      const outbox = sessionStore.handoffOutbox();
      await expectEventsInCommit(sessionStore, outbox);
    } finally {
      await data.dispose();
    }
  });
});

describeChannelStore('SqliteChannelStore (sessionStore.channelStore())', async () => {
  const data = dataDirectory('channels');
  return {
    store: data.open().sessionStore.channelStore(),
    reopen: async () => data.open().sessionStore.channelStore(),
    dispose: data.dispose,
  };
});

describeChannelInbox('SqliteChannelInbox (sessionStore.channelStore().inbox())', async () => {
  const data = dataDirectory('channel-inbox');
  return {
    inbox: data.open().sessionStore.channelStore().inbox(),
    reopen: async () => data.open().sessionStore.channelStore().inbox(),
    dispose: data.dispose,
  };
});

describe('SqliteSessionStore with its channel inbox', () => {
  it('removes the update’s inbox entry in the turn’s commit: a refused commit removes none', async () => {
    const data = dataDirectory('inbox-commit');
    try {
      await expectInboxDoneInCommit(data.open().sessionStore);
    } finally {
      await data.dispose();
    }
  });
});

describeOperatorRouting('SqliteOperatorRouting (openSqlite)', async () => {
  const data = dataDirectory('routing');
  return {
    routing: data.open().operatorRouting,
    reopen: async () => data.open().operatorRouting,
    dispose: data.dispose,
  };
});

describeCannedResponses('SqliteCannedResponses (openSqlite)', async () => {
  const data = dataDirectory('canned');
  return {
    canned: data.open().cannedResponses,
    reopen: async () => data.open().cannedResponses,
    dispose: data.dispose,
  };
});

describeSatisfactionRatings('SqliteSatisfactionRatings (openSqlite)', async () => {
  const data = dataDirectory('satisfaction');
  return {
    ratings: data.open().satisfaction,
    reopen: async () => data.open().satisfaction,
    dispose: data.dispose,
  };
});

describeCallbackRequests('SqliteCallbackRequests (openSqlite)', async () => {
  const data = dataDirectory('callbacks');
  return {
    callbacks: data.open().callbacks,
    reopen: async () => data.open().callbacks,
    dispose: data.dispose,
  };
});
