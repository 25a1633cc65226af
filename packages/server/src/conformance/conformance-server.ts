import { defineTree, TreeAgent } from '@treeagent/core';
import { InMemoryAuditLog } from '@treeagent/core/adapter';
import { ExactEmbedder, ScriptedLanguageModel } from '@treeagent/core/test';
import { createApp } from '../app.js';
import type { CreateAppOptions } from '../app-options.js';
import { InMemorySessionTokens } from '../auth/session-tokens.js';
import type { RouteChannel } from '../channels/route-channel.js';
import { type OperatorAccount, operatorDirectory } from '../operators/operator-accounts.js';
import { hashOperatorPassword } from '../operators/operator-password.js';

/** The API key every conformance server requires. */
export const CONFORMANCE_API_KEY = 'sk-route-channel-conformance';

/** The operators of a conformance server and their passwords: one admin, one operator. */
export const CONFORMANCE_OPERATORS = {
  admin: { id: 'conformance-admin', password: 'conformance-admin-password' },
  operator: { id: 'conformance-operator', password: 'conformance-operator-password' },
} as const;

let accounts: Promise<OperatorAccount[]> | null = null;

/** The two accounts, hashed once per test file. */
export function conformanceAccounts(): Promise<OperatorAccount[]> {
  accounts ??= Promise.all(
    (['admin', 'operator'] as const).map(async (role) => ({
      id: CONFORMANCE_OPERATORS[role].id,
      name: `Conformance ${role}`,
      role,
      passwordHash: await hashOperatorPassword(CONFORMANCE_OPERATORS[role].password),
    })),
  );
  return accounts;
}

/** A one-node agent: "hello" is answered with a static message, anything else is out of scope. */
export function conformanceAgent(): TreeAgent {
  return new TreeAgent({
    tree: defineTree({
      name: 'route-channel-conformance',
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'conformance' },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          name: 'hello',
          chunks: ['hello'],
          emit: { message: { type: 'static', content: 'Hello from the conformance agent.' } },
        },
      ],
    }),
    embedder: new ExactEmbedder({ vectors: { hello: [1, 0] } }),
    models: new ScriptedLanguageModel({ answers: 'A scripted answer.' }),
  });
}

/** A server with `channels`, the API key, the two operators and in-memory session tokens. */
export function conformanceServer(
  channels: RouteChannel[],
  accountsOfServer: OperatorAccount[],
  options: Partial<CreateAppOptions> = {},
) {
  const tokens = new InMemorySessionTokens();
  const app = createApp({
    agent: conformanceAgent(),
    logger: { error: () => {} },
    apiKeys: [CONFORMANCE_API_KEY],
    sessionTokens: tokens,
    operators: { directory: operatorDirectory(accountsOfServer), auditLog: new InMemoryAuditLog() },
    authFailureLimit: false,
    channels,
    ...options,
  });
  return { app, tokens };
}

/** Logs `role`'s operator in through the API; resolves to the login token (the cookie's value). */
export async function conformanceLogin(
  app: ReturnType<typeof createApp>,
  role: keyof typeof CONFORMANCE_OPERATORS,
): Promise<string> {
  const { id, password } = CONFORMANCE_OPERATORS[role];
  const response = await app.request('/api/v1/operator/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${CONFORMANCE_API_KEY}` },
    body: JSON.stringify({ login: id, password }),
  });
  if (response.status !== 200)
    throw new Error(
      `The conformance server refused its own operator's login (${response.status}): the channel must not answer or change /api/v1/operator/login.`,
    );
  const cookie = /treeagent_operator=([^;]+)/.exec(response.headers.get('set-cookie') ?? '');
  if (!cookie) throw new Error('The operator login set no cookie.');
  return cookie[1]!;
}
