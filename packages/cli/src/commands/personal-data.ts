import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { TreeAgentError } from '@treeagent/core';
import type {
  AuditLog,
  CallbackRequests,
  ChannelStore,
  FileStore,
  HandoffOutbox,
  HandoffQueue,
  SatisfactionRatings,
  SessionStore,
  VersionStore,
} from '@treeagent/core/adapter';
import {
  PersonalData,
  type PersonalDataStores,
  type PersonalDataSubject,
  type SessionTokens,
  USER_ID_PATTERN,
} from '@treeagent/server';
import { openDataDirectory } from '../data-directory.js';
import type { Output } from '../output.js';
import { importPostgresAdapter } from '../postgres-adapter.js';
import { defineCommand } from './command-definition.js';

export interface PersonalDataOptions {
  data?: string;
  /** PostgreSQL instead of the data directory: a `postgres://` URL. */
  databaseUrl?: string;
  schema?: string;
  /** The user (`userId` given when their sessions were created). */
  user?: string;
  /** Sessions by id, besides or instead of the user's. */
  session?: string[];
  /** A messaging channel's user, `<channel>:<platform user id>` (docs/channels.md, "Privacy"). */
  channelUser?: string;
  /** `export`: where to write the JSON (default: standard output). */
  out?: string;
  /** `delete`: confirms the deletion (without it, the command only says what it would delete). */
  yes?: boolean;
}

/**
 * `treeagent personal-data export|delete` (docs/privacy.md): one user's data on request, from the
 * data directory's SQLite file or PostgreSQL, as an admin (whoever may open the data: the data
 * directory is 0700). Audited like the HTTP endpoints, with the actor `cli:<os user>`.
 */
export async function personalDataCommand(
  action: string,
  options: PersonalDataOptions,
  out: Output,
): Promise<number> {
  if (action !== 'export' && action !== 'delete') {
    throw new TreeAgentError('INVALID_INPUT', `personal-data takes "export" or "delete"; got "${action}".`);
  }
  if (options.user === undefined && !options.session?.length && options.channelUser === undefined) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      'Name the user (--user <id>, the userId given when their sessions were created), a channel user (--channel-user <channel>:<user id>) or sessions (--session <id>…).',
    );
  }
  const channelUser = options.channelUser === undefined ? undefined : channelUserOf(options.channelUser);
  if (options.user !== undefined && !USER_ID_PATTERN.test(options.user)) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `--user must be 1–128 letters, digits and . _ : @ + - (the userId given when creating sessions); got ${JSON.stringify(options.user)}.`,
    );
  }
  const subject: PersonalDataSubject = {
    ...(options.user === undefined ? {} : { userId: options.user }),
    ...(options.session?.length ? { sessionIds: options.session } : {}),
    ...(channelUser ? { channelUser } : {}),
  };
  const actor = { id: `cli:${userInfo().username}`, role: 'admin' };
  const { stores, close } = await openStores(options);
  try {
    const personalData = new PersonalData(stores);
    if (action === 'export') {
      const exported = await personalData.export(subject, actor);
      const json = JSON.stringify(exported, null, 2);
      if (options.out) {
        writeFileSync(options.out, `${json}\n`, { mode: 0o600 });
        out.log(`Wrote ${exported.sessions.length} sessions to ${options.out}.`);
      } else out.log(json);
      return 0;
    }
    if (!options.yes) {
      const sessions = (await personalData.export(subject, actor)).sessions.filter(
        (session) => session.found,
      );
      out.log(
        `Would delete ${sessions.length} sessions (${sessions.map((session) => session.sessionId).join(', ') || 'none'}) with their history, turn facts, files, handoff notes, webhook deliveries, channel identities and messages, and tokens. Run again with --yes to delete them.`,
      );
      return 1;
    }
    const { deleted } = await personalData.delete(subject, actor);
    out.log(`Deleted ${deleted.length} sessions${deleted.length ? `: ${deleted.join(', ')}` : ''}.`);
    return 0;
  } finally {
    await close();
  }
}

/** `telegram:77` → the channel `telegram`'s user `77` (the user id may hold colons: a Slack team). */
function channelUserOf(value: string): { channel: string; userId: string } {
  const at = value.indexOf(':');
  const channel = value.slice(0, at);
  const userId = value.slice(at + 1);
  if (at < 1 || !/^[a-z0-9][a-z0-9_-]{0,62}$/.test(channel) || userId === '')
    throw new TreeAgentError(
      'INVALID_INPUT',
      `--channel-user must be <channel>:<user id>, the channel's name in channels.json and the platform's id of the user (e.g. telegram:5550123); got ${JSON.stringify(value)}.`,
    );
  return { channel, userId };
}

type Closable<T> = T & { close(): Promise<void> };
type Opens<T> = new (options: { connection: string; schema?: string }) => Closable<T>;

/** What the CLI uses of `@treeagent/postgres` (an optional adapter, loaded at run time). */
interface PostgresModule {
  PostgresSessionStore: Opens<
    SessionStore & { handoffOutbox(): HandoffOutbox; channelStore(): ChannelStore }
  >;
  PostgresSessionTokens: Opens<SessionTokens>;
  PostgresAuditLog: Opens<AuditLog>;
  PostgresHandoffQueue: Opens<HandoffQueue>;
  PostgresFileStore: Opens<FileStore>;
  PostgresVersionStore: Opens<VersionStore>;
  PostgresCallbackRequests: Opens<CallbackRequests>;
  PostgresSatisfactionRatings: Opens<SatisfactionRatings>;
}

async function openStores(
  options: PersonalDataOptions,
): Promise<{ stores: PersonalDataStores; close: () => Promise<void> }> {
  if (options.databaseUrl) {
    const postgres = await importPostgresAdapter<PostgresModule>('--database-url');
    const where = {
      connection: options.databaseUrl,
      ...(options.schema ? { schema: options.schema } : {}),
    };
    const sessionStore = new postgres.PostgresSessionStore(where);
    const tokens = new postgres.PostgresSessionTokens(where);
    const auditLog = new postgres.PostgresAuditLog(where);
    const handoffQueue = new postgres.PostgresHandoffQueue(where);
    const fileStore = new postgres.PostgresFileStore(where);
    const versions = new postgres.PostgresVersionStore(where);
    const outbox = sessionStore.handoffOutbox();
    const callbacks = new postgres.PostgresCallbackRequests(where);
    const satisfaction = new postgres.PostgresSatisfactionRatings(where);
    return {
      stores: {
        sessionStore,
        tokens,
        auditLog,
        handoffQueue,
        fileStore,
        outbox,
        channels: sessionStore.channelStore(),
        versions,
        callbacks,
        satisfaction,
      },
      close: async () => {
        await Promise.all([
          sessionStore.close(),
          tokens.close(),
          auditLog.close(),
          handoffQueue.close(),
          fileStore.close(),
          versions.close(),
          callbacks.close(),
          satisfaction.close(),
        ]);
      },
    };
  }
  const data = openDataDirectory(options.data);
  return {
    stores: {
      sessionStore: data.options.sessionStore!,
      tokens: data.sessionTokens,
      auditLog: data.auditLog,
      handoffQueue: data.handoffQueue,
      // The webhook's outbox in the same file (this process commits nothing, so opening it changes nothing).
      outbox: data.options.sessionStore!.handoffOutbox!(),
      // The messaging channels' identities and outbox in the same file.
      channels: data.options.sessionStore!.channelStore?.() ?? null,
      // The sessions' tree versions (serve --env) in the same file.
      versions: data.versionStore,
      // Callback requests and ratings (CSAT) in the same file.
      callbacks: data.callbacks,
      satisfaction: data.satisfaction,
      ...(data.options.fileStore ? { fileStore: data.options.fileStore } : {}),
    },
    close: () => data.close(),
  };
}

/** `treeagent personal-data`: its help, arguments and options (the command table, `command-table.ts`). */
export const personalDataDefinition = defineCommand({
  name: 'personal-data',
  description:
    "One user's data on request (docs/privacy.md): export writes every session created for the user (their userId) as JSON — record, history, turn facts, files, handoff notes, audit entries; delete removes all of it (one transaction per store) and their tokens. Audited as cli:<os user>.",
  arguments: [{ name: '<action>', description: 'export or delete' }],
  options: [
    { flags: '--user <id>', description: 'the user: the userId given when their sessions were created' },
    { flags: '--session <ids...>', description: 'sessions by id, besides or instead of the user' },
    {
      flags: '--channel-user <channel:id>',
      description:
        "a messaging channel's user: the channel's name and the platform's user id (e.g. telegram:5550123), every conversation they wrote in",
    },
    { flags: '--data <directory>', description: 'data directory (SQLite)', default: '.treeagent' },
    {
      flags: '--database-url <url>',
      description: 'PostgreSQL instead (postgres://…; needs @treeagent/postgres)',
    },
    { flags: '--schema <name>', description: 'PostgreSQL schema of the tables (default public)' },
    {
      flags: '--out <file>',
      description: 'export: write the JSON to this file (mode 0600) instead of standard output',
    },
    {
      flags: '--yes',
      description: 'delete: really delete (without it, says what would be deleted and exits 1)',
    },
  ],
  run: ([action], options, out) => personalDataCommand(action, options, out),
});
