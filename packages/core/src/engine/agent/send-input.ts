import { TreeAgentError } from '../../errors/tree-agent-error.js';
import type { ChannelConversation } from '../../protocol/channel.js';
import type { TurnInput } from '../turn/turn-input.js';

/** Longest session id accepted. */
export const MAX_SESSION_ID_LENGTH = 256;

/** Checks what the caller passed to `send`/`stream`, with an `INVALID_INPUT` error saying what is wrong. */
export function checkSendInput(
  sessionId: unknown,
  message: unknown,
  options: {
    attachments?: unknown;
    clientMetadata?: unknown;
    selectedOption?: unknown;
    signal?: AbortSignal;
    inbound?: unknown;
    replyTo?: unknown;
    userId?: unknown;
  },
): TurnInput {
  if (typeof sessionId !== 'string' || sessionId === '' || sessionId.length > MAX_SESSION_ID_LENGTH) {
    throw invalid(
      `the session id must be a non-empty string of at most ${MAX_SESSION_ID_LENGTH} characters, got ${JSON.stringify(sessionId)}.`,
    );
  }
  if (typeof message !== 'string') throw invalid(`the message must be a string, got ${typeof message}.`);
  if (message.includes('\u0000')) throw invalid(NUL_IN_TEXT('the message'));
  const attachments = options.attachments ?? [];
  if (!Array.isArray(attachments)) throw invalid('attachments must be an array of FileMetadata.');
  const clientMetadata = options.clientMetadata ?? {};
  if (typeof clientMetadata !== 'object' || clientMetadata === null || Array.isArray(clientMetadata)) {
    throw invalid('clientMetadata must be an object.');
  }
  const selectedOption = options.selectedOption ?? null;
  if (selectedOption !== null && typeof selectedOption !== 'string')
    throw invalid('selectedOption must be a string.');
  if (selectedOption?.includes('\u0000')) throw invalid(NUL_IN_TEXT('selectedOption'));
  const inbound = options.inbound as { channel?: unknown; messageId?: unknown } | undefined;
  if (
    inbound !== undefined &&
    (typeof inbound !== 'object' ||
      inbound === null ||
      typeof inbound.channel !== 'string' ||
      inbound.channel === '' ||
      typeof inbound.messageId !== 'string' ||
      inbound.messageId === '')
  )
    throw invalid('inbound must be { channel, messageId } with two non-empty strings.');
  if (options.userId !== undefined && (typeof options.userId !== 'string' || options.userId === ''))
    throw invalid(
      `userId must be a non-empty string (the user the session belongs to), got ${JSON.stringify(options.userId)}; leave it out when there is none.`,
    );
  const replyTo = options.replyTo as Record<string, unknown> | undefined;
  if (replyTo !== undefined) {
    if (
      typeof replyTo !== 'object' ||
      replyTo === null ||
      !['channel', 'conversationId', 'userId'].every(
        (key) => typeof replyTo[key] === 'string' && replyTo[key] !== '',
      )
    )
      throw invalid(
        'replyTo must be a channel conversation { channel, conversationId, userId } of non-empty strings.',
      );
    if (!inbound || inbound.channel !== replyTo.channel)
      throw invalid(
        'replyTo needs inbound from the same channel: the answer is queued under the id of the update it answers.',
      );
  }
  return {
    message: selectedOption !== null && message === '' ? selectedOption : message,
    attachments,
    clientMetadata: clientMetadata as Record<string, unknown>,
    selectedOption,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(inbound
      ? { inbound: { channel: inbound.channel as string, messageId: inbound.messageId as string } }
      : {}),
    ...(replyTo ? { replyTo: structuredClone(replyTo) as unknown as ChannelConversation } : {}),
  };
}

/** A NUL character is no text, and PostgreSQL cannot store it: refused the same on every store. */
const NUL_IN_TEXT = (what: string) =>
  `${what} holds the NUL character (U+0000), which no text needs and the PostgreSQL store cannot keep; remove it.`;

function invalid(problem: string): TreeAgentError {
  return new TreeAgentError('INVALID_INPUT', `Invalid message: ${problem}`);
}
