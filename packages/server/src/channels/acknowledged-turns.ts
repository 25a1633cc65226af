/**
 * The turns of webhook requests already answered (`ChannelRequest.acknowledgeWith`: Slack wants its
 * 200 within 3 seconds). They run after the answer, one after another per conversation (in the order
 * the requests arrived), and `settle` waits for them at shutdown.
 */
export class AcknowledgedTurns {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `task` after the earlier tasks of `conversation`; a failure is `onError`'s, never the next task's. */
  run(conversation: string, task: () => Promise<void>, onError: (error: unknown) => void): void {
    const previous = this.#tails.get(conversation) ?? Promise.resolve();
    const next = previous.then(task).catch(onError);
    this.#tails.set(conversation, next);
    void next.then(() => {
      if (this.#tails.get(conversation) === next) this.#tails.delete(conversation);
    });
  }

  /** How many conversations have turns waiting or running. */
  get pending(): number {
    return this.#tails.size;
  }

  /** Resolves when every task queued so far has finished. */
  async settle(): Promise<void> {
    while (this.#tails.size > 0) await Promise.all([...this.#tails.values()]);
  }
}
