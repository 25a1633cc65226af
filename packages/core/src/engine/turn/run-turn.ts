import { TreeAgentError } from '../../errors/tree-agent-error.js';
import type { AgentEvent, AgentOutput } from '../../protocol/events.js';
import { duplicateDelivery } from '../../session/duplicate-delivery.js';
import { emptySessionRecord, type SessionRecord, type SessionStore } from '../../session/session-store.js';
import { rootDefinitionOf } from '../../tree/node-callbacks.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import { extendMessage } from './extend-message.js';
import { sessionLanguage } from './session-language.js';
import { runSteps } from './step-loop.js';
import { Turn } from './turn.js';
import { type TurnRecording, turnCommit, turnFact } from './turn-commit.js';
import type { TurnInput } from './turn-input.js';

export type { TurnRecording } from './turn-commit.js';

const NO_RECORDING: TurnRecording = { redactor: null, facts: false };

/**
 * One interaction (docs/concepts.md §3, steps 1–8): load the session, extend the message, beforeRun, the step
 * loop, afterRun, then commit everything in one store call. Any error before the commit saves
 * nothing of the turn (the error carries the turn's events); a failure of the tree's own code also clears the session's position (see
 * `resetPosition`), so the next message starts from the primary agent.
 */
export async function runTurn(
  runtime: AgentRuntime,
  store: SessionStore,
  sessionId: string,
  input: TurnInput,
  sink: (event: AgentEvent) => void,
  recording: TurnRecording = NO_RECORDING,
): Promise<AgentOutput> {
  const release = store.lock ? await storeCall(() => store.lock!(sessionId, input.signal), 'lock') : null;
  let record: SessionRecord | null = null;
  let turn: Turn | null = null;
  try {
    // A redelivered update whose turn already ran (checked under the session's lock): run nothing.
    if (
      input.inbound &&
      store.hasReceipt &&
      (await storeCall(() => store.hasReceipt!(input.inbound!), 'load'))
    )
      throw duplicateDelivery(sessionId, input.inbound);
    record =
      (await storeCall(() => store.load(sessionId), 'load')) ??
      emptySessionRecord(sessionId, runtime.now().toISOString());
    const stored = record.language ?? null;
    const language = await sessionLanguage(runtime, record, input.message);
    const turnRecord = language.language === stored ? record : { ...record, language: language.language };
    const loadHistory = (limit: number | undefined) =>
      storeCall(() => store.history(sessionId, limit === undefined ? {} : { limit }), 'history');
    turn = new Turn(runtime, turnRecord, input, loadHistory, sink);
    turn.emit({
      type: 'turn-start',
      sessionId,
      turn: turn.context.turn,
      message: input.message,
      at: runtime.now().toISOString(),
      ...(runtime.exploreEmbedder !== runtime.embedder ? { fittedSpace: runtime.exploreEmbedder.id } : {}),
    });
    // People have the session (docs/concepts.md §11): the message is kept for them, the tree does not run.
    if (turn.openHandoff()) {
      const extended = await extendMessage(turn);
      if (extended !== null) turn.applyExtendedMessage(extended);
      await runSteps(turn);
      turn.applyHandoff();
      const root = runtime.tree.root;
      const afterRun = rootDefinitionOf(root)?.afterRun;
      if (afterRun)
        await turn.call(root, 'afterRun', afterRun, [
          await turn.selfOf(root),
          turn.context,
          { output: turn.output() },
        ]);
    }
    const session = turn.commit();
    // A language detected from a short message answered this turn; the session does not keep it.
    if (!language.fixed) {
      if (record.language === undefined) delete session.record.language;
      else session.record.language = stored;
    }
    turn.checkAbort();
    const output = turn.output();
    // Nothing touches the store after this commit: it may free the lock in the same write.
    const commit = turnCommit(turn, session, output, recording, release !== null);
    await storeCall(() => store.commit(commit), 'commit');
    const durationMs = performance.now() - turn.startedAt;
    turn.emit({ type: 'turn-end', output, durationMs });
    return output;
  } catch (error) {
    // send() rejects with the turn's events attached: the trace explains what led to the error.
    if (turn && TreeAgentError.isInstance(error)) error.events = [...turn.trace];
    if (turn && recording.facts && store.recordFacts && !TreeAgentError.hasCode(error, 'ABORTED')) {
      const code = TreeAgentError.isInstance(error) ? error.code : 'ERROR';
      await store.recordFacts([turnFact(turn, recording, 'error', code)]).catch(() => {});
    }
    if (record && restartsFromPrimary(error)) await resetPosition(store, record, runtime, release !== null);
    throw error;
  } finally {
    if (release) await release();
  }
}

/**
 * Failures of the tree's own code (a callback that throws, returns a bad output or targets an unknown
 * node, a loop, a time limit): the same message would fail the same way, so the session must not
 * stay where it is. Cancellations, store and model outages and the client's invalid input keep the
 * position (retrying may succeed).
 */
const RESTART_CODES = new Set([
  'CALLBACK_ERROR',
  'INVALID_CALLBACK_OUTPUT',
  'LOOP',
  'UNKNOWN_LINK',
  'UNKNOWN_NODE',
  'INVALID_STEP',
  'SESSION_STATE',
  'TIMEOUT',
  'MODEL_NOT_CONFIGURED',
  'FILTER',
]);

function restartsFromPrimary(error: unknown): boolean {
  return TreeAgentError.isInstance(error) ? RESTART_CODES.has(error.code) : true;
}

/**
 * The recovery policy after a failed turn (docs/concepts.md §10, "Does a failed turn save anything?"): nothing of the turn
 * is saved, and the session's position is cleared — last node, agent positions, pending message,
 * explore constraints — so the next message starts from the primary agent as a first interaction
 * does; history, state and turn count are kept. Without it a node whose `after` keeps failing in an
 * agent without `fallback` would fail every later message. Best effort: if the store refuses, the
 * original error is what the caller sees.
 */
async function resetPosition(
  store: SessionStore,
  record: SessionRecord,
  runtime: AgentRuntime,
  holdsLock: boolean,
): Promise<void> {
  const positioned =
    record.lastNodeId !== null ||
    record.pendingMessage !== null ||
    record.constraints !== null ||
    Object.keys(record.agentPositions).length > 0;
  if (!positioned || record.version === 0) return;
  try {
    await store.commit({
      record: {
        ...record,
        version: record.version + 1,
        lastNodeId: null,
        agentPositions: {},
        pendingMessage: null,
        constraints: null,
        updatedAt: runtime.now().toISOString(),
      },
      history: [],
      expectedVersion: record.version,
      ...(holdsLock ? { endsInteraction: true } : {}),
    });
  } catch {
    // The store is down or the session moved on: the next message finds it as it is.
  }
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
