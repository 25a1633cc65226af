import type { ChannelRequest } from '@treeagent/core/adapter';
import { malformedBody } from '../malformed-body.js';
import { META_SIGNATURE_HEADER, metaSignatureMatches } from './meta-signature.js';

/** The secrets of a Meta app's webhook (the same for WhatsApp, Messenger and Instagram). */
export interface MetaWebhookSecrets {
  /** The Meta app's secret: every webhook request is signed with it (`X-Hub-Signature-256`). */
  appSecret: string;
  /** The verify token typed in the app's webhook settings (the subscription handshake). */
  verifyToken: string;
}

/**
 * Meta's webhook, the part every Meta channel shares: a GET is the subscription handshake (answered
 * with `hub.challenge` when `hub.verify_token` matches), a POST must carry the HMAC-SHA256 of its raw
 * body (`X-Hub-Signature-256`) and be JSON. Returns the channel's answer, a rejection, or the payload
 * for the channel to read.
 */
export async function readMetaWebhook(
  request: Request,
  secrets: MetaWebhookSecrets,
): Promise<Exclude<ChannelRequest, { kind: 'messages' }> | { kind: 'payload'; payload: unknown }> {
  if (request.method === 'GET') {
    const query = new URL(request.url).searchParams;
    if (query.get('hub.mode') === 'subscribe' && query.get('hub.verify_token') === secrets.verifyToken)
      return { kind: 'answer', response: new Response(query.get('hub.challenge') ?? '', { status: 200 }) };
    return { kind: 'rejected', reason: 'the verify token of the subscription handshake does not match' };
  }
  if (request.method !== 'POST')
    return { kind: 'rejected', reason: `Meta posts webhook events; got ${request.method}` };
  const body = await request.text();
  if (!metaSignatureMatches(secrets.appSecret, body, request.headers.get(META_SIGNATURE_HEADER)))
    return { kind: 'rejected', reason: `missing or wrong ${META_SIGNATURE_HEADER} header` };
  try {
    return { kind: 'payload', payload: JSON.parse(body) };
  } catch {
    // Signed, so Meta's: it redelivers until a 2xx, so one the channel cannot read is answered 200.
    return malformedBody('Meta', 'the body is not JSON', 200);
  }
}

/** Checks the options every Meta channel needs, naming the missing one and the docs' section. */
export function requireMetaOptions(
  platform: string,
  name: string,
  options: Record<string, unknown>,
  keys: readonly string[],
): void {
  for (const key of keys)
    if (!options[key])
      throw new TypeError(
        `${platform} channel "${name}": ${key} is missing (docs/channels.md, "${platform}").`,
      );
}
