import { ChannelSendError, type ChannelSendProgress } from '@treeagent/core/adapter';

/**
 * Sends the platform messages of one `Channel.send` in order (`ChannelSendProgress`): skips the ones
 * an earlier attempt delivered, reports each one the platform took, and stops before the next when
 * the server stopped waiting. `sendOne` gets the signal to pass to its fetch where the client takes one.
 */
export async function sendInOrder<T>(
  platform: string,
  messages: readonly T[],
  progress: ChannelSendProgress | undefined,
  sendOne: (message: T, signal: AbortSignal | undefined) => Promise<unknown>,
): Promise<void> {
  for (let index = progress?.skip ?? 0; index < messages.length; index++) {
    throwIfStopped(platform, progress?.signal);
    await sendOne(messages[index]!, progress?.signal);
    progress?.sent(index + 1);
  }
}

/** A retryable error when the server stopped waiting for this send (its signal aborted). */
export function throwIfStopped(platform: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new ChannelSendError(
      `the ${platform} send was stopped (the server stopped waiting for it); what the platform took is kept, the rest is sent on the next attempt`,
      { retryable: true, cause: signal.reason },
    );
}
