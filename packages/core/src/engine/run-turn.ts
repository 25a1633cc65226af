import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { AgentEvent, AgentOutput } from '../protocol/events.js';
import {
  emptySessionRecord,
  type ReleaseLock,
  type SessionRecord,
  type SessionStore,
} from '../session/session-store.js';
import type { RootNodeDefinition } from '../tree/node-definition.js';
import { extendMessage } from './extend-message.js';
import type { AgentRuntime } from './runtime.js';
import { runSteps } from './step-loop.js';
import { Turn } from './turn.js';
import type { TurnInput } from './turn-input.js';

/**
 * One interaction (docs/concepts.md §3, steps 1–8): load the session, extend the message,
 * beforeRun, the step loop, afterRun, then commit everything in one store call. Any error before
 * the commit leaves the session exactly as it was, and carries the turn's events.
 */
export async function runTurn(
  runtime: AgentRuntime,
  store: SessionStore,
  sessionId: string,
  input: TurnInput,
  sink: (event: AgentEvent) => void,
): Promise<AgentOutput> {
  const release = store.lock ? await storeCall(() => store.lock!(sessionId, input.signal), 'lock') : null;
  try {
    const record: SessionRecord =
      (await storeCall(() => store.load(sessionId), 'load')) ??
      emptySessionRecord(sessionId, runtime.now().toISOString());
    const loadHistory = (limit: number | undefined) =>
      storeCall(() => store.history(sessionId, limit === undefined ? {} : { limit }), 'history');
    const turn = new Turn(runtime, record, input, loadHistory, sink);
    try {
      return await runInteraction(turn, store, release);
    } catch (error) {
      // send() rejects with the turn's events attached: the trace explains what led to the error.
      if (TreeAgentError.isInstance(error)) error.events = [...turn.trace];
      throw error;
    }
  } finally {
    if (release) await release();
  }
}

async function runInteraction(
  turn: Turn,
  store: SessionStore,
  release: ReleaseLock | null,
): Promise<AgentOutput> {
  const { runtime, input } = turn;
  turn.emit({
    type: 'turn-start',
    sessionId: turn.sessionId,
    turn: turn.context.turn,
    message: input.message,
    at: runtime.now().toISOString(),
  });
  const extended = await extendMessage(turn);
  if (extended !== null) turn.applyExtendedMessage(extended);
  await runSteps(turn);
  const root = runtime.tree.root;
  const afterRun = (root.definition as RootNodeDefinition).afterRun;
  if (afterRun)
    await turn.call(root, 'afterRun', afterRun, [
      await turn.selfOf(root),
      turn.context,
      { output: turn.output() },
    ]);
  const commit = turn.commit();
  turn.checkAbort();
  // Nothing touches the store after this commit: it may free the lock in the same write.
  await storeCall(() => store.commit(release ? { ...commit, endsInteraction: true } : commit), 'commit');
  const output = turn.output();
  const durationMs = performance.now() - turn.startedAt;
  turn.emit({ type: 'turn-end', output, durationMs });
  return output;
}

async function storeCall<T>(call: () => Promise<T>, operation: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (TreeAgentError.isInstance(error)) throw error;
    throw new TreeAgentError(
      'SESSION_STORE',
      `The session store failed to ${operation}: ${(error as Error)?.message ?? error}. The interaction was not saved; retry when the store is back.`,
      {
        cause: error,
      },
    );
  }
}
