import { TreeAgentError } from '../../errors/tree-agent-error.js';
import { handoffEventsOf } from '../../handoff/handoff-events.js';
import { redactHistoryEntry } from '../../privacy/redact-commit.js';
import type { Redactor } from '../../privacy/redactor.js';
import type { AgentEvent } from '../../protocol/events.js';
import type { FileMetadata } from '../../protocol/file-metadata.js';
import type { HandBackTarget, HandoffState, HandoffTransition, OperatorRef } from '../../protocol/handoff.js';
import type { HistoryEntry } from '../../protocol/history-entry.js';
import type { SessionRecord, SessionStore } from '../../session/session-store.js';
import { aNode } from '../../tree/node-type-article.js';
import type { Tree } from '../../tree/tree.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import { handoffRow } from '../turn/handoff-rows.js';

/** An operator's message to the user of a handed-off session. */
export interface OperatorReply {
  /** The text; may be empty when there are attachments. */
  content: string;
  /** Options the user may pick (sent back as a message, like an emit's options). */
  options?: string[];
  /** Files already stored in the agent's file store for this session. */
  attachments?: FileMetadata[];
}

/** What an operator does to a handed-off session (`TreeAgent.handoffAction`). */
export type HandoffAction =
  /** Take the session; `takeOver` takes it from another operator (e.g. an admin). */
  | { type: 'claim'; operator: OperatorRef; takeOver?: boolean }
  /** Put the session back in the queue for another operator. */
  | { type: 'release'; operator: OperatorRef }
  | { type: 'reply'; operator: OperatorRef; reply: OperatorReply }
  /**
   * Pass the session on: to another operator (who holds it at once: a `claim` transition in their
   * name) or to another team's queue (it waits there unclaimed: a `release` transition). `takeOver`
   * passes on a session another operator holds (an admin).
   */
  | {
      type: 'transfer';
      operator: OperatorRef;
      to: { operator: OperatorRef } | { queue: string };
      takeOver?: boolean;
    }
  /**
   * Give the session back to the agent: `handed-back` (to `target`, or by default to the primary
   * agent as on a first interaction) or `closed` (the matter is settled; the agent answers the next
   * message from the primary agent). `takeOver` ends a handoff another operator claimed.
   */
  | {
      type: 'end';
      operator: OperatorRef;
      outcome: 'handed-back' | 'closed';
      target?: HandBackTarget | null;
      takeOver?: boolean;
    };

/** What a handoff action changed: the handoff after it, the history rows it appended, its event. */
export interface HandoffUpdate {
  sessionId: string;
  /** The handoff after the action (`null`: the agent has the session again). */
  handoff: HandoffState | null;
  /** History rows appended (a transition, or the operator's message); empty when nothing changed. */
  entries: HistoryEntry[];
  /** The transition as a trace event, when there was one. */
  event: AgentEvent | null;
}

function handoffError(
  sessionId: string,
  state: 'not-handed-off' | 'claimed' | 'not-claimed',
  message: string,
  operatorId?: string,
): TreeAgentError<'HANDOFF'> {
  return new TreeAgentError('HANDOFF', message, {
    details: { sessionId, state, ...(operatorId === undefined ? {} : { operatorId }) },
  });
}

/** Checks a hand-back target with the rules of an `after` output's `nodeTarget`. */
function checkTarget(tree: Tree, target: HandBackTarget): void {
  if (!tree.has(target.nodeTarget)) {
    throw new TreeAgentError(
      'UNKNOWN_NODE',
      `The hand-back targets node ${target.nodeTarget}, which is not in the tree. Pick a node of the tree view (GET /api/v1/tree).`,
      { details: { nodeTarget: target.nodeTarget } },
    );
  }
  const node = tree.node(target.nodeTarget);
  if (node.type === 'root') {
    throw new TreeAgentError(
      'INVALID_STEP',
      'The hand-back targets the root, which cannot run. Pick an agent or a node below it.',
    );
  }
  if (target.resume && node.type !== 'agent') {
    throw new TreeAgentError(
      'INVALID_STEP',
      `The hand-back asks to resume node ${node.id}, ${aNode(node.type)} node. resume needs an agent node.`,
    );
  }
}

/**
 * Applies an operator's action to a session record (docs/concepts.md §11): the new record (its
 * version +1) and the history rows to commit with it, or an error that leaves the session as it is.
 * `null` record: no change is needed (the action was already done, e.g. a second claim).
 */
export function applyHandoffAction(
  record: SessionRecord | null,
  sessionId: string,
  action: HandoffAction,
  tree: Tree,
  at: string,
): { record: SessionRecord | null; update: HandoffUpdate } {
  const state = record?.handoff ?? null;
  if (!record || !state) {
    throw handoffError(
      sessionId,
      'not-handed-off',
      `Session "${sessionId}" is not with people: it was never handed off, or it was handed back already.`,
    );
  }
  const { operator } = action;
  const holder = state.operator;
  const heldByOther = holder !== null && holder.id !== operator.id;
  const row = (transition: HandoffTransition) => handoffRow(transition, record.turn, at);
  const commit = (
    next: Partial<SessionRecord>,
    entries: HistoryEntry[],
    transition: HandoffTransition | null,
  ) => ({
    record: { ...record, ...next, version: record.version + 1, updatedAt: at },
    update: {
      sessionId,
      handoff: next.handoff === undefined ? state : next.handoff,
      entries,
      event: transition ? ({ type: 'handoff', transition } as AgentEvent) : null,
    },
  });
  const claimedElsewhere = () =>
    handoffError(
      sessionId,
      'claimed',
      `Session "${sessionId}" is claimed by ${holder!.name} (${holder!.id}); only they can do this, unless an admin takes it over.`,
      holder!.id,
    );

  switch (action.type) {
    case 'claim': {
      if (holder?.id === operator.id)
        return { record: null, update: { sessionId, handoff: state, entries: [], event: null } };
      if (heldByOther && !action.takeOver) throw claimedElsewhere();
      const transition: HandoffTransition = { type: 'claim', operator };
      return commit({ handoff: { ...state, operator, claimedAt: at } }, [row(transition)], transition);
    }
    case 'release': {
      if (!holder) return { record: null, update: { sessionId, handoff: state, entries: [], event: null } };
      if (heldByOther) throw claimedElsewhere();
      const transition: HandoffTransition = { type: 'release', operator };
      return commit(
        { handoff: { ...state, operator: null, claimedAt: null } },
        [row(transition)],
        transition,
      );
    }
    case 'transfer': {
      if (heldByOther && !action.takeOver) throw claimedElsewhere();
      if ('operator' in action.to) {
        const target = action.to.operator;
        const transition: HandoffTransition = { type: 'claim', operator: target };
        return commit(
          { handoff: { ...state, operator: target, claimedAt: at } },
          [row(transition)],
          transition,
        );
      }
      const transition: HandoffTransition = { type: 'release', operator };
      return commit(
        { handoff: { ...state, queue: action.to.queue, operator: null, claimedAt: null } },
        [row(transition)],
        transition,
      );
    }
    case 'reply': {
      if (holder === null) {
        throw handoffError(
          sessionId,
          'not-claimed',
          `Claim session "${sessionId}" before writing to its user.`,
        );
      }
      if (heldByOther) throw claimedElsewhere();
      const { content, options = [], attachments = [] } = action.reply;
      const entry: HistoryEntry = {
        role: 'assistant',
        content,
        turn: record.turn,
        at,
        operator,
        ...(options.length ? { options } : {}),
        ...(attachments.length ? { attachments } : {}),
      };
      const known = record.files ?? [];
      const files = [...known, ...attachments.filter((file) => !known.some((kept) => kept.id === file.id))];
      return commit({ files }, [entry], null);
    }
    case 'end': {
      if (heldByOther && !action.takeOver) throw claimedElsewhere();
      const target = action.target ?? null;
      if (target) checkTarget(tree, target);
      const transition: HandoffTransition = {
        type: 'end',
        outcome: action.outcome,
        operator,
        nodeTarget: target?.nodeTarget ?? null,
      };
      // Back to the agent: at the target, or from the primary agent as on a first interaction
      // (the conversation moved on with people; resuming a node's old question would surprise).
      return commit(
        {
          handoff: null,
          startAt: target,
          lastNodeId: null,
          pendingMessage: null,
          agentPositions: target?.resume ? record.agentPositions : {},
          constraints: null,
        },
        [row(transition)],
        transition,
      );
    }
  }
}

/**
 * Runs an operator's action on a session (`TreeAgent.handoffAction`, which queues it with the
 * session's turns): under the store's lock when it has one, the action is applied to the stored
 * record and committed atomically with its history rows and webhook events; an action that does
 * not fit the handoff throws `HANDOFF` and changes nothing. With a `redactor` (the agent's
 * `redaction`), the rows are stored redacted as a turn's are (an operator's reply and its options,
 * docs/privacy.md); the update returned, which goes to the user, keeps the text as written.
 */
export async function runHandoffAction(
  store: SessionStore,
  runtime: AgentRuntime,
  sessionId: string,
  action: HandoffAction,
  redactor: Redactor | null = null,
): Promise<HandoffUpdate> {
  const release = store.lock ? await store.lock(sessionId) : null;
  try {
    const record = await store.load(sessionId);
    const at = runtime.now().toISOString();
    const { record: next, update } = applyHandoffAction(record, sessionId, action, runtime.tree, at);
    if (next && record) {
      const history = redactor
        ? update.entries.map((entry) => redactHistoryEntry(entry, redactor))
        : update.entries;
      const handoffEvents = handoffEventsOf(sessionId, record.handoff, next.handoff, history);
      await store.commit({
        record: next,
        history,
        expectedVersion: record.version,
        ...(release ? { endsInteraction: true } : {}),
        ...(handoffEvents.length ? { handoffEvents } : {}),
      });
    }
    return update;
  } finally {
    await release?.();
  }
}
