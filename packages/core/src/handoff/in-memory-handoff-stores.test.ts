import { it } from 'vitest';
import {
  describeCallbackRequests,
  describeCannedResponses,
  describeEventBus,
  describeHandoffOutbox,
  describeHandoffQueue,
  describeOperatorRouting,
  describeOperatorStores,
  describeSatisfactionRatings,
  describeSessionTokens,
  expectEventsInCommit,
} from '../conformance/index.js';
import { InMemorySessionStore } from '../session/in-memory-session-store.js';
import { InMemoryAuditLog } from './audit-log.js';
import { InMemoryCallbackRequests } from './callback-requests.js';
import { InMemoryCannedResponses } from './canned-responses.js';
import { InMemoryEventBus } from './event-bus.js';
import { InMemoryHandoffQueue } from './handoff-queue.js';
import { InMemoryHandoffOutbox } from './in-memory-handoff-outbox.js';
import { InMemoryOperatorRouting } from './operator-routing.js';
import { InMemoryOperatorSessions } from './operator-sessions.js';
import { InMemorySatisfactionRatings } from './satisfaction.js';
import { InMemorySessionTokens } from './session-tokens.js';

const inMemory = (test: string) => ({
  skip: [{ reason: 'kept in process memory: nothing outlives the object', tests: [test] }],
});

describeHandoffQueue(
  'InMemoryHandoffQueue',
  async () => ({ queue: new InMemoryHandoffQueue(), dispose: async () => {} }),
  inMemory('a persistent queue is seen by another instance on the same storage (restart, second process)'),
);

describeOperatorStores(
  'in-memory operator stores',
  async () => ({
    sessions: new InMemoryOperatorSessions(),
    auditLog: new InMemoryAuditLog(),
    dispose: async () => {},
  }),
  inMemory('a persistent store is seen by another instance on the same storage (restart, second process)'),
);

describeHandoffOutbox(
  'InMemoryHandoffOutbox',
  async () => ({ outbox: new InMemoryHandoffOutbox(), dispose: async () => {} }),
  inMemory('a persistent outbox keeps pending events for another instance (restart)'),
);

describeSessionTokens(
  'InMemorySessionTokens',
  async () => ({ tokens: new InMemorySessionTokens(), dispose: async () => {} }),
  inMemory('a persistent store is seen by another instance on the same storage (restart, second process)'),
);

describeEventBus('InMemoryEventBus', async () => ({ bus: new InMemoryEventBus(), dispose: async () => {} }), {
  skip: [
    {
      reason:
        'one process by design: processes share events through a bus across processes (PostgresEventBus)',
      tests: ['an event published by one instance is heard by another on the same storage'],
    },
  ],
});

it('the in-memory session store writes a commit’s handoff events with the commit', async () => {
  const store = new InMemorySessionStore();
  await expectEventsInCommit(store, store.handoffOutbox());
});

describeOperatorRouting('InMemoryOperatorRouting', async () => ({
  routing: new InMemoryOperatorRouting(),
  dispose: async () => {},
}));

describeCannedResponses('InMemoryCannedResponses', async () => ({
  canned: new InMemoryCannedResponses(),
  dispose: async () => {},
}));

describeSatisfactionRatings('InMemorySatisfactionRatings', async () => ({
  ratings: new InMemorySatisfactionRatings(),
  dispose: async () => {},
}));

describeCallbackRequests('InMemoryCallbackRequests', async () => ({
  callbacks: new InMemoryCallbackRequests(),
  dispose: async () => {},
}));
