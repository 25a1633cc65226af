/**
 * The help-desk scenario of the `treeagent serve` tests: an admin logs in, creates a canned response,
 * takes a handed-off conversation and hands it back; the user rates it (CSAT). What a restart must keep.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashOperatorPassword } from '@treeagent/server';
import { HANDOFF_MESSAGE } from './cluster.js';

/** The admin of the help-desk tests and the password. */
export const HELP_DESK_ADMIN = { login: 'anna', password: 'a help desk admin password' };

/** Writes an operators file (chmod 600) with the admin, of the team `cluster`; returns its path. */
export async function writeHelpDeskOperators(directory: string): Promise<string> {
  const file = join(directory, 'help-desk-operators.json');
  writeFileSync(
    file,
    JSON.stringify({
      operators: [
        {
          id: HELP_DESK_ADMIN.login,
          name: 'Anna',
          role: 'admin',
          teams: ['cluster'],
          passwordHash: await hashOperatorPassword(HELP_DESK_ADMIN.password),
        },
      ],
    }),
  );
  chmodSync(file, 0o600);
  return file;
}

async function call(url: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const { json, ...rest } = init;
  return fetch(url, {
    ...rest,
    headers: { 'content-type': 'application/json', ...(rest.headers as Record<string, string>) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
}

async function expectStatus(response: Response, status: number, what: string): Promise<Response> {
  if (response.status !== status)
    throw new Error(`${what}: ${response.status} ${await response.text()} (expected ${status})`);
  return response;
}

/** Logs the admin in; returns the operator token. */
export async function loginAdmin(url: string): Promise<string> {
  const response = await expectStatus(
    await call(`${url}/api/v1/operator/login`, {
      method: 'POST',
      json: { login: HELP_DESK_ADMIN.login, password: HELP_DESK_ADMIN.password },
    }),
    200,
    'operator login',
  );
  return /treeagent_operator=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1] ?? '';
}

/**
 * Creates the canned response `/greet`, and a conversation that is handed off (the cluster tree's
 * `HANDOFF_MESSAGE`), claimed, handed back, then rated 4 "Kind and quick" by its user.
 */
export async function useHelpDesk(url: string): Promise<void> {
  const operator = { 'x-operator-token': await loginAdmin(url) };
  await expectStatus(
    await call(`${url}/api/v1/operator/canned`, {
      method: 'POST',
      headers: operator,
      json: { shortcut: 'greet', team: null, text: 'Hello, I am here to help.' },
    }),
    201,
    'create a canned response',
  );
  const session = (await (
    await expectStatus(await call(`${url}/api/v1/sessions`, { method: 'POST' }), 201, 'create a session')
  ).json()) as { sessionId: string; token: string };
  const user = { 'x-session-token': session.token };
  await expectStatus(
    await call(`${url}/api/v1/sessions/${session.sessionId}/messages`, {
      method: 'POST',
      headers: user,
      json: { message: HANDOFF_MESSAGE },
    }),
    200,
    'the message that hands off',
  );
  const handoff = `${url}/api/v1/operator/handoffs/${session.sessionId}`;
  await expectStatus(
    await call(`${handoff}/claim`, { method: 'POST', headers: operator, json: {} }),
    200,
    'claim',
  );
  await expectStatus(
    await call(`${handoff}/hand-back`, { method: 'POST', headers: operator, json: {} }),
    200,
    'hand back',
  );
  await expectStatus(
    await call(`${url}/api/v1/sessions/${session.sessionId}/satisfaction`, {
      method: 'POST',
      headers: user,
      json: { rating: 4, comment: 'Kind and quick' },
    }),
    201,
    'rate the conversation',
  );
}

/** What the help desk holds now: the canned responses' shortcuts and the ratings report. */
export async function helpDeskState(url: string): Promise<{
  shortcuts: string[];
  ratings: { count: number; average: number | null; comments: { comment: string }[] };
}> {
  const operator = { 'x-operator-token': await loginAdmin(url) };
  const canned = (await (
    await expectStatus(await call(`${url}/api/v1/operator/canned`, { headers: operator }), 200, 'list canned')
  ).json()) as { responses: { shortcut: string }[] };
  const ratings = (await (
    await expectStatus(
      await call(`${url}/api/v1/analytics/satisfaction`, { headers: operator }),
      200,
      'the ratings report',
    )
  ).json()) as { count: number; average: number | null; comments: { comment: string }[] };
  return { shortcuts: canned.responses.map((response) => response.shortcut), ratings };
}
