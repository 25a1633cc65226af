import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Channel, ChannelConversation } from '@treeagent/core/adapter';
import { createApp } from '@treeagent/server';
import { openSqlite, type SqliteStores } from '@treeagent/sqlite';
import { type OperatorAccount, operatorDirectory } from '../../../server/src/operators/operator-accounts.js';
import { handoffAgent } from '../../../server/src/test-support/handoff.js';
import { loginOperator } from '../../../server/src/test-support/operators.js';

/** One server process of a channel test: the app and its SQLite stores. */
export interface ChannelAppProcess {
  app: ReturnType<typeof createApp>;
  stores: SqliteStores;
  stop(): Promise<void>;
}

/**
 * The server of a channel's whole-path test: the server tests' handoff tree (mock embedder and model,
 * labelled in its fixture) on SQLite files in a temporary folder, with operators and the channel;
 * `start` again after `stop` is a restart on the same files. `cleanup` stops everything and removes
 * the folder.
 */
export function sqliteChannelApp(channel: () => Channel, accounts: OperatorAccount[]) {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-channel-'));
  const running = new Set<ChannelAppProcess>();
  const start = (): ChannelAppProcess => {
    const stores = openSqlite(directory);
    const app = createApp({
      agent: handoffAgent({ sessionStore: stores.sessionStore, fileStore: stores.fileStore }),
      logger: { error: () => {} },
      operators: { directory: operatorDirectory(accounts), auditLog: stores.auditLog },
      handoff: { queue: stores.handoffQueue },
      channels: { channels: [channel()], retryDelayMs: 20, pollMs: 50 },
    });
    const process: ChannelAppProcess = {
      app,
      stores,
      stop: async () => {
        if (!running.delete(process)) return;
        await app.shutdown();
        await stores.close();
      },
    };
    running.add(process);
    return process;
  };
  const cleanup = async () => {
    for (const process of [...running]) await process.stop();
    // Retried: once seen (1 run in many) failing with ENOTEMPTY, a file appearing while the directory
    // was being removed.
    rmSync(directory, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  };
  /** The session of a conversation (the stored conversation is rewritten with `conversation`: give it as the channel does). */
  const sessionOf = (stores: SqliteStores, conversation: ChannelConversation) =>
    stores.sessionStore.channelStore().sessionOf(conversation, 'unused', new Date());
  /** The user's entries of a session's history: [content, selected option]. */
  const userEntries = async (stores: SqliteStores, sessionId: string) =>
    (await stores.sessionStore.history(sessionId))
      .filter((entry) => entry.role === 'user')
      .map((entry) => [entry.content, entry.selectedOption ?? null]);
  return { start, cleanup, sessionOf, userEntries };
}

/** An operator (Bruno) claims the handed-off session and replies with a text and a file of the session. */
export async function operatorReplies(
  app: ReturnType<typeof createApp>,
  sessionId: string,
  reply: { content: string; attachments: string[] },
): Promise<{ queued: string[]; status: number }> {
  const token = await loginOperator(app, 'bruno');
  const headers = { 'X-Operator-Token': token, 'Content-Type': 'application/json' };
  const list = (await (await app.request('/api/v1/operator/handoffs', { headers })).json()) as {
    handoffs: { sessionId: string }[];
  };
  await app.request(`/api/v1/operator/handoffs/${sessionId}/claim`, { method: 'POST', headers, body: '{}' });
  const response = await app.request(`/api/v1/operator/handoffs/${sessionId}/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify(reply),
  });
  return { queued: list.handoffs.map((handoff) => handoff.sessionId), status: response.status };
}
