import type { ChannelRequest } from '@treeagent/core/adapter';

/**
 * The answer to a verified request whose body is not what the platform sends (`null`, a field of the
 * wrong type): nothing runs, and the request is answered instead of throwing (a 500 the platform
 * would redeliver forever). `status` is 400 where the platform gives up on a 4xx, 200 where it
 * redelivers anything but a 2xx (Meta, Telegram): the body says what was wrong.
 */
export function malformedBody(
  platform: string,
  detail: string,
  status: 200 | 400,
): Extract<ChannelRequest, { kind: 'answer' }> {
  return {
    kind: 'answer',
    response: Response.json(
      { title: `Not a ${platform} webhook body the channel can read; ignored`, detail },
      { status, headers: { 'Content-Type': 'application/problem+json' } },
    ),
  };
}

/** Whether `value` is a JSON object (not `null`, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
