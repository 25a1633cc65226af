import { createSign, generateKeyPairSync, type KeyObject, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FakePlatformSend } from '@treeagent/core/conformance';
import { type FakeAnswer, type LoopbackServer, startLoopbackServer } from './loopback-server.js';

/** One activity the fake Bot Connector received. */
export interface TeamsPost {
  conversationId: string;
  type: string;
  text: string;
  /** The titles and data of the Adaptive Card's Action.Submit buttons. */
  buttons: { title: string; data: unknown }[];
  attachments: { contentType: string; contentUrl?: string; name?: string }[];
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/**
 * A local fake of Microsoft's side of a Teams bot on loopback (for tests, never a product path):
 * an Entra tenant (the JWKS the Agents SDK validates incoming tokens against, the OpenID metadata,
 * and a client-credentials token endpoint) and the Bot Connector a reply goes to (the activity's
 * `serviceUrl`): `POST /v3/conversations/:id/activities`, which wants the token the tenant issued.
 * It signs the tokens of incoming activities with a key pair generated here; the next sends can be
 * made to fail with an HTTP status (429 with `Retry-After`).
 */
export class FakeTeams {
  readonly appId = '00000000-0000-4000-8000-00000000b07a';
  readonly appPassword = 'fake-client-secret~1';
  readonly tenantId = '11111111-2222-4333-8444-555555555555';
  readonly botId = '28:00000000-0000-4000-8000-00000000b07a';
  readonly received: FakePlatformSend[] = [];
  readonly posts: TeamsPost[] = [];
  /** Files a user sent, by id (download URLs need no token, like Teams' pre-authenticated ones). */
  readonly files = new Map<string, Uint8Array>();
  /** Files the bot uploaded after a file consent, by upload id (the user's OneDrive, faked). */
  readonly uploads = new Map<string, Uint8Array>();
  /** The content of every file consent card the bot sent (description, size, contexts). */
  readonly consents: Record<string, any>[] = [];
  readonly #kid = randomUUID();
  readonly #privateKey: KeyObject;
  readonly #publicKey: KeyObject;
  readonly #issued = new Set<string>();
  /** The answers of the next sends: a failure, or `null` to let one through. */
  readonly #failures: ({ status: number; retryAfter?: number } | null)[] = [];
  #server!: LoopbackServer;
  origin = '';

  private constructor() {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.#privateKey = pair.privateKey;
    this.#publicKey = pair.publicKey;
  }

  static async start(): Promise<FakeTeams> {
    const fake = new FakeTeams();
    fake.#server = await startLoopbackServer((request, body) => fake.#handle(request, body));
    fake.origin = fake.#server.origin;
    return fake;
  }

  /** The Entra authority root to give the channel (`authority`). */
  get authority(): string {
    return this.origin;
  }

  /** The Bot Connector's URL, the `serviceUrl` of the activities. */
  get serviceUrl(): string {
    return `${this.origin}/connector/`;
  }

  /** The issuer of the tenant's tokens. */
  get issuer(): string {
    return `${this.origin}/${this.tenantId}/v2.0`;
  }

  failNext(status: number, retryAfter?: number): void {
    this.#failures.push({ status, ...(retryAfter === undefined ? {} : { retryAfter }) });
  }

  /** Lets `nth - 1` sends through and answers the `nth` with `status` (1: the next send). */
  failSend(nth: number, status: number): void {
    this.#failures.push(...Array.from({ length: nth - 1 }, () => null), { status });
  }

  /** A file a user sent: its attachment in a personal chat's message activity. */
  share(id: string, name: string, data: Uint8Array) {
    this.files.set(id, data);
    return {
      contentType: 'application/vnd.microsoft.teams.file.download.info',
      contentUrl: `https://contoso.sharepoint.com/personal/${name}`,
      name,
      content: {
        downloadUrl: `${this.origin}/download/${id}`,
        uniqueId: id,
        fileType: name.split('.').pop(),
      },
    };
  }

  /**
   * A token as Azure Bot Service signs an activity for the bot: RS256 with the tenant's key,
   * audience the app id, the activity's service URL as a claim. `overrides` changes claims (a wrong
   * audience, an expired token); `key: 'other'` signs with a key the tenant does not publish.
   */
  token(overrides: Record<string, unknown> = {}, key: 'tenant' | 'other' = 'tenant'): string {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: this.issuer,
      aud: this.appId,
      tid: this.tenantId,
      serviceurl: this.serviceUrl,
      nbf: now - 60,
      iat: now - 60,
      exp: now + 3600,
      ...overrides,
    };
    const header = { alg: 'RS256', typ: 'JWT', kid: this.#kid };
    const signed = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
    const signingKey =
      key === 'tenant' ? this.#privateKey : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const signature = createSign('RSA-SHA256').update(signed).sign(signingKey);
    return `${signed}.${base64url(signature)}`;
  }

  /** What Teams gives the bot when the user accepts a file: where to upload it (here) and where it will be. */
  uploadInfo(name: string) {
    const id = randomUUID();
    return {
      name,
      uploadUrl: `${this.origin}/onedrive/${id}`,
      contentUrl: `https://contoso-my.sharepoint.com/personal/user/Documents/Applications/${encodeURIComponent(name)}`,
      uniqueId: id,
      fileType: name.split('.').pop() ?? '',
    };
  }

  close(): Promise<void> {
    return this.#server.close();
  }

  async #handle(request: IncomingMessage, body: Buffer): Promise<FakeAnswer> {
    const url = new URL(request.url ?? '/', this.origin);
    const raw = body.toString();
    const tenant = `/${this.tenantId}`;
    if (url.pathname === `${tenant}/discovery/v2.0/keys`)
      return {
        status: 200,
        body: {
          keys: [{ ...this.#publicKey.export({ format: 'jwk' }), kid: this.#kid, use: 'sig', alg: 'RS256' }],
        },
      };
    if (url.pathname === `${tenant}/v2.0/.well-known/openid-configuration`)
      return {
        status: 200,
        body: {
          issuer: this.issuer,
          jwks_uri: `${this.origin}${tenant}/discovery/v2.0/keys`,
          token_endpoint: `${this.origin}${tenant}/oauth2/v2.0/token`,
          id_token_signing_alg_values_supported: ['RS256'],
        },
      };
    if (url.pathname === `${tenant}/oauth2/v2.0/token` && request.method === 'POST') {
      const form = new URLSearchParams(raw);
      if (
        form.get('grant_type') !== 'client_credentials' ||
        form.get('client_id') !== this.appId ||
        form.get('client_secret') !== this.appPassword
      )
        return { status: 401, body: { error: 'invalid_client' } };
      const token = this.token({ aud: 'https://api.botframework.com', appid: this.appId });
      this.#issued.add(token);
      return { status: 200, body: { token_type: 'Bearer', expires_in: 3600, access_token: token } };
    }
    if (url.pathname.startsWith('/onedrive/') && request.method === 'PUT') {
      const range = /^bytes 0-(\d+)\/(\d+)$/.exec(String(request.headers['content-range'] ?? ''));
      if (!range || Number(range[2]) !== body.length || Number(range[1]) !== body.length - 1)
        return { status: 400, body: { error: { message: 'Content-Range must cover the whole body' } } };
      this.uploads.set(url.pathname.slice('/onedrive/'.length), new Uint8Array(body));
      return { status: 201, body: { id: url.pathname } };
    }
    if (url.pathname.startsWith('/download/')) {
      const data = this.files.get(url.pathname.slice('/download/'.length));
      return data ? { status: 200, body: data } : { status: 404, body: {} };
    }
    const match = /^\/connector\/v3\/conversations\/([^/]+)\/activities$/.exec(url.pathname);
    if (!match || request.method !== 'POST') return { status: 404, body: { error: { code: 'NotFound' } } };
    const bearer = (request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!this.#issued.has(bearer))
      return { status: 401, body: { message: 'Authorization has been denied for this request.' } };
    const activity = JSON.parse(raw) as {
      type: string;
      text?: string;
      attachments?: { contentType: string; contentUrl?: string; name?: string; content?: any }[];
    };
    const conversationId = decodeURIComponent(match[1]!);
    if (activity.type !== 'typing') {
      const failure = this.#failures.shift();
      if (failure)
        return {
          status: failure.status,
          body: { error: { code: failure.status === 429 ? 'Throttled' : 'ServiceError', message: 'fake' } },
          headers: failure.retryAfter === undefined ? {} : { 'Retry-After': String(failure.retryAfter) },
        };
    }
    const card = activity.attachments?.find(
      (item) => item.contentType === 'application/vnd.microsoft.card.adaptive',
    );
    const buttons = ((card?.content?.actions ?? []) as { title: string; data: unknown }[]).map((action) => ({
      title: action.title,
      data: action.data,
    }));
    const files = (activity.attachments ?? []).filter((item) => item.contentUrl?.startsWith('data:'));
    for (const item of activity.attachments ?? [])
      if (item.contentType === 'application/vnd.microsoft.teams.card.file.consent')
        this.consents.push(item.content);
    const post: TeamsPost = {
      conversationId,
      type: activity.type,
      // A card's text is its TextBlock.
      text:
        activity.text ||
        (card?.content?.body ?? []).map((block: { text?: string }) => block.text ?? '').join('\n'),
      buttons,
      attachments: (activity.attachments ?? []).map(({ contentType, contentUrl, name }) => ({
        contentType,
        ...(contentUrl ? { contentUrl } : {}),
        ...(name ? { name } : {}),
      })),
    };
    this.posts.push(post);
    if (activity.type === 'typing') this.received.push({ conversationId, kind: 'typing' });
    else if (files.length)
      for (const file of files)
        this.received.push({
          conversationId,
          kind: 'file',
          fileName: file.name ?? '',
          data: new Uint8Array(Buffer.from(file.contentUrl!.split(',')[1]!, 'base64')),
        });
    else
      this.received.push({
        conversationId,
        kind: 'text',
        text: post.text,
        ...(buttons.length ? { buttons: buttons.map((button) => button.title) } : {}),
      });
    return { status: 201, body: { id: `activity-${this.posts.length}` } };
  }
}

/** A client-credentials token provider against the fake tenant (tests: MSAL wants an https authority). */
export class FakeTenantTokens {
  readonly #fake: FakeTeams;
  constructor(fake: FakeTeams) {
    this.#fake = fake;
  }
  async getAccessToken(
    authConfig: { clientId?: string; clientSecret?: string },
    scope: string,
  ): Promise<string> {
    const response = await fetch(`${this.#fake.origin}/${this.#fake.tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: authConfig.clientId ?? '',
        client_secret: authConfig.clientSecret ?? '',
        scope,
      }),
    });
    if (!response.ok) throw new Error(`the fake tenant refused the credentials: HTTP ${response.status}`);
    return ((await response.json()) as { access_token: string }).access_token;
  }
}

let activityIds = 0;

/** A message activity from a user, as Azure Bot Service posts it for Teams. */
export function teamsActivity(
  fake: FakeTeams,
  input: {
    conversationId: string;
    userId: string;
    text?: string;
    id?: string;
    value?: unknown;
    attachments?: unknown[];
    conversationType?: 'personal' | 'channel';
  },
) {
  return {
    type: 'message',
    id: input.id ?? `${++activityIds}`,
    timestamp: new Date().toISOString(),
    serviceUrl: fake.serviceUrl,
    channelId: 'msteams',
    from: { id: input.userId, name: 'Giulia Rossi', aadObjectId: randomUUID() },
    conversation: {
      id: input.conversationId,
      conversationType: input.conversationType ?? 'personal',
      tenantId: fake.tenantId,
    },
    recipient: { id: fake.botId, name: 'Help desk' },
    text: input.text ?? '',
    textFormat: 'plain',
    ...(input.value === undefined ? {} : { value: input.value }),
    ...(input.attachments ? { attachments: input.attachments } : {}),
    channelData: { tenant: { id: fake.tenantId } },
  };
}

/** The webhook request Azure Bot Service sends: the activity with `Authorization: Bearer <token>` (or none). */
export function teamsRequest(
  activity: unknown,
  token: string | null,
  path = '/channels/teams/webhook',
): Request {
  return new Request(`http://server${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(activity),
  });
}
