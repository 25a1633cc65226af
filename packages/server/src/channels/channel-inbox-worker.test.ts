import { type ChannelInboxEntry, InMemoryChannelInbox } from '@treeagent/core/adapter';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ChannelInboxSettings,
  ChannelInboxWorker,
  isTransientTurnError,
  loggedUpdateId,
} from './channel-inbox-worker.js';

// The worker over the in-memory inbox (the reference implementation); the turns are functions of the
// test and the logger a recording mock (labelled).

const settings: ChannelInboxSettings = {
  maxAttempts: 3,
  retryDelayMs: 10,
  leaseMs: 300,
  pollMs: 20,
  concurrency: 8,
};

const message = (messageId: string, chat: string) => ({
  channel: 'slack',
  messageId,
  sessionId: `session-${chat}`,
  conversation: { channel: 'slack', conversationId: chat, userId: 'U1' },
  text: 'hello',
  selectedOption: null,
  attachments: [],
});

const workers: ChannelInboxWorker[] = [];
afterEach(async () => {
  for (const worker of workers.splice(0)) {
    worker.stop();
    await worker.settle();
  }
});

function worker(
  inbox: InMemoryChannelInbox,
  run: (entry: ChannelInboxEntry) => Promise<void>,
  logged: string[] = [],
  given: string[] = [],
) {
  const made = new ChannelInboxWorker({
    inbox,
    run,
    logger: { error: (text: string) => logged.push(text) },
    onGivenUp: (entry) => {
      given.push(entry.messageId);
    },
    settings,
  });
  workers.push(made);
  made.start();
  return made;
}

describe('ChannelInboxWorker', () => {
  it('renews the lease while a turn runs: a second process does not run it again', async () => {
    const inbox = new InMemoryChannelInbox();
    await inbox.add(message('m1', 'A'), new Date());
    const runs: string[] = [];
    const slow = async (entry: ChannelInboxEntry) => {
      runs.push(entry.messageId);
      // Four leases long.
      await new Promise((resolve) => setTimeout(resolve, 1200));
    };
    worker(inbox, slow);
    await expect.poll(() => runs.length).toBe(1);
    // Another process polls the same inbox all along.
    worker(inbox, slow);
    await expect.poll(() => inbox.counts(), { timeout: 10_000 }).toEqual([]);
    expect(runs).toEqual(['m1']);
  });

  it('a turn that keeps failing is given up after the last attempt, with its reason and no text in the log', async () => {
    const inbox = new InMemoryChannelInbox();
    await inbox.add({ ...message('m2', 'B'), text: 'my card is 4111 1111 1111 1111' }, new Date());
    await inbox.add(message('m3', 'B'), new Date());
    const logged: string[] = [];
    const given: string[] = [];
    const ran: string[] = [];
    worker(
      inbox,
      async (entry) => {
        ran.push(entry.messageId);
        if (entry.messageId === 'm2') throw Object.assign(new Error('the model is down'), { code: 'MODEL' });
      },
      logged,
      given,
    );
    await expect.poll(() => ran).toEqual(['m2', 'm2', 'm2', 'm3']);
    expect(given).toEqual(['m2']);
    const [failure] = await inbox.failures();
    expect(failure).toMatchObject({
      messageId: 'm2',
      status: 'failed',
      attempts: 3,
      lastError: 'MODEL: the model is down',
    });
    expect(logged.join('\n')).toContain(
      `update ${loggedUpdateId('m2')} (session session-B) failed 3 time(s)`,
    );
    expect(logged.join('\n')).not.toContain('4111');
  });

  it('a turn that fails the same way each time (CALLBACK_ERROR) runs once, is given up at once, and onGivenUp is told', async () => {
    const inbox = new InMemoryChannelInbox();
    await inbox.add(message('m5', 'D'), new Date());
    await inbox.add(message('m6', 'D'), new Date());
    const logged: string[] = [];
    const given: string[] = [];
    const ran: string[] = [];
    worker(
      inbox,
      async (entry) => {
        ran.push(entry.messageId);
        if (entry.messageId === 'm5')
          throw Object.assign(new Error('The agent could not answer (CALLBACK_ERROR)'), {
            code: 'CALLBACK_ERROR',
          });
      },
      logged,
      given,
    );
    await expect.poll(() => ran).toEqual(['m5', 'm6']);
    await expect.poll(() => given).toEqual(['m5']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ran).toEqual(['m5', 'm6']);
    const [failure] = await inbox.failures();
    expect(failure).toMatchObject({ messageId: 'm5', status: 'failed', attempts: 1 });
    expect(logged.join('\n')).toContain('Not retried');
  });

  it('the platform’s update id never appears in the log: each line names its hash', async () => {
    const inbox = new InMemoryChannelInbox();
    const wamid = 'wamid.HBgLMzkzNDcxMjM0NTY3FQIAEhgUM0VCMDQ1';
    await inbox.add(message(wamid, 'E'), new Date());
    const logged: string[] = [];
    let runs = 0;
    worker(
      inbox,
      async () => {
        runs++;
        throw Object.assign(new Error('the store is down'), { code: 'SESSION_STORE' });
      },
      logged,
    );
    await expect.poll(() => runs).toBe(3);
    await expect.poll(() => logged.length).toBe(3);
    expect(logged.join('\n')).not.toContain(wamid);
    expect(logged.join('\n')).toContain(loggedUpdateId(wamid));
  });

  it('retries store outages, models and uncoded errors; not callback and input errors', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    expect(isTransientTurnError(coded('SESSION_STORE'))).toBe(true);
    expect(isTransientTurnError(coded('MODEL'))).toBe(true);
    expect(isTransientTurnError(new Error('connection reset'))).toBe(true);
    expect(isTransientTurnError(coded('CALLBACK_ERROR'))).toBe(false);
    expect(isTransientTurnError(coded('INVALID_INPUT'))).toBe(false);
  });

  it('waitFor resolves when this process has run the entry, or after its time', async () => {
    const inbox = new InMemoryChannelInbox();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const made = worker(inbox, () => held);
    await inbox.add(message('m4', 'C'), new Date());
    let waited = false;
    const waiting = made.waitFor('slack', 'm4', 60_000).then(() => {
      waited = true;
    });
    made.poke();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(waited).toBe(false);
    release();
    await waiting;
    expect(await inbox.counts()).toEqual([]);
    // Nothing runs it here: the wait ends with its time.
    const started = Date.now();
    await made.waitFor('slack', 'elsewhere', 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
  });
});
