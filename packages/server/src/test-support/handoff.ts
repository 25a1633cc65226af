import { defineTree, type NodeDefinition, TreeAgent, type TreeAgentOptions } from '@treeagent/core';
import type { QueueEntry } from '@treeagent/core/adapter';
import { ExactEmbedder, ScriptedLanguageModel } from '@treeagent/core/test';
import { testNodes, VECTORS } from './fixtures.js';

/** The notice and return option of the test tree's handoff. */
export const HANDOFF_NOTICE = 'An operator will answer you shortly.';
export const RETURN_OPTION = 'Back to the assistant';

/**
 * The nodes of the server tests' shop, whose root hands off every message that mentions "human"
 * (queue `support`, with a summary, the notice and the return option). Mocks (labelled): an exact
 * embedder and a scripted model.
 */
export function handoffNodes(): NodeDefinition[] {
  const [root, ...rest] = testNodes();
  return [
    {
      ...(root as Extract<NodeDefinition, { type: 'root' }>),
      beforeRun: (_self, context) =>
        /human/i.test(context.input.original)
          ? {
              handoff: {
                reason: 'asked for a person',
                queue: 'support',
                summary: 'Wants to talk about an order.',
                message: HANDOFF_NOTICE,
                returnOption: RETURN_OPTION,
              },
            }
          : undefined,
    },
    ...rest,
  ];
}

/** A `TreeAgent` over `handoffNodes()` (or `nodes`, e.g. a variant of them). */
export function handoffAgent(
  options: Omit<TreeAgentOptions, 'tree'> & { nodes?: NodeDefinition[] } = {},
): TreeAgent {
  const { nodes, ...rest } = options;
  return new TreeAgent({
    tree: defineTree({ name: 'test-desk', nodes: nodes ?? handoffNodes() }),
    embedder: new ExactEmbedder({ vectors: { ...VECTORS, [RETURN_OPTION]: VECTORS.hello! } }),
    models: new ScriptedLanguageModel({ answers: 'Once upon a time, a bike.' }),
    ...rest,
  });
}

/** Reads a server-sent-events response as it arrives. */
export class SseReader {
  readonly events: { event: string; id: string | null; data: unknown }[] = [];
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  #buffer = '';
  #done: Promise<void>;

  constructor(response: Response) {
    this.#reader = response.body!.getReader();
    this.#done = this.#pump();
  }

  async #pump(): Promise<void> {
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await this.#reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      this.#buffer += decoder.decode(value, { stream: true });
      let end = this.#buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        const lines = block.split('\n');
        const field = (name: string) =>
          lines
            .filter((line) => line.startsWith(`${name}:`))
            .map((line) => line.slice(name.length + 1).trimStart());
        const data = field('data').join('\n');
        if (data) {
          this.events.push({
            event: field('event')[0] ?? 'message',
            id: field('id')[0] ?? null,
            data: JSON.parse(data),
          });
        }
        end = this.#buffer.indexOf('\n\n');
      }
    }
  }

  /** Waits until an event matches (checking those already received), up to `timeoutMs`. */
  async waitFor(
    match: (event: { event: string; id: string | null; data: unknown }) => boolean,
    timeoutMs = 5000,
  ): Promise<{ event: string; id: string | null; data: any }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(match);
      if (found) return found as { event: string; id: string | null; data: any };
      if (Date.now() > deadline) {
        throw new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(this.events)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async close(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
    await this.#done;
  }
}

/**
 * A queue entry put straight into a `HandoffQueue` (a busy desk's backlog, no session behind it):
 * `s-0000`, `s-0001`, … waiting in `support` since one second apart from 2026-12-01 08:00 UTC,
 * unless `fields` say otherwise.
 */
export function queuedHandoff(index: number, fields: Partial<QueueEntry> = {}): QueueEntry {
  return {
    sessionId: `s-${String(index).padStart(4, '0')}`,
    status: 'waiting',
    queue: 'support',
    reason: 'asked for a person',
    summary: null,
    since: new Date(Date.UTC(2026, 11, 1, 8) + index * 1000).toISOString(),
    operator: null,
    claimedAt: null,
    lastUserMessageAt: null,
    closedAt: null,
    outcome: null,
    notes: [],
    ...fields,
  };
}
