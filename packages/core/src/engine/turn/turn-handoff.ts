import { OutputChecker } from '../../callbacks/output-checker.js';
import { validateHandoffRequest } from '../../callbacks/validate-outputs.js';
import { handoffEventsOf } from '../../handoff/handoff-events.js';
import type {
  HandBackTarget,
  HandoffRequest,
  HandoffState,
  HandoffTransition,
} from '../../protocol/handoff.js';
import type { HandoffEvent } from '../../protocol/handoff-outbox.js';
import type { LocalizedText } from '../../protocol/localized-text.js';
import type { SessionCommit, SessionRecord } from '../../session/session-store.js';
import { isReturnOption, startedHandoff } from './handoff-rows.js';

/** A handoff that starts at the end of the turn's steps: the state it starts, its transition. */
export interface StartedHandoff {
  state: HandoffState;
  transition: Extract<HandoffTransition, { type: 'start' }>;
}

/**
 * The handoff within one turn, and its one owner (docs/architecture.md, "The handoff map"):
 * **request** (a callback's `handoff` output or `context.handoff`) → **start** at the end of the
 * steps → **hold** (people have the session: the tree does not run) → **end** (the user picks the
 * return option; an operator's end is `applyHandoffAction`, outside any turn). It decides and keeps
 * the state; the turn records what it decides (history rows, events, status) and commits it.
 */
export class TurnHandoff {
  /** The handoff as the session had it when the turn started (the webhook events compare with it). */
  readonly #loaded: HandoffState | null;
  #state: HandoffState | null;
  #request: { request: HandoffRequest; nodeId: number } | null = null;
  #startAt: HandBackTarget | null;

  constructor(record: Pick<SessionRecord, 'handoff' | 'startAt'>) {
    this.#loaded = record.handoff ?? null;
    this.#state = this.#loaded;
    this.#startAt = record.startAt ?? null;
  }

  /** The session's handoff when people have it (loaded, or started by this turn); `null`: the agent has it. */
  get state(): HandoffState | null {
    return this.#state;
  }

  /** Where a hand-back to a node asked the agent to continue, until the start position takes it. */
  get startAt(): HandBackTarget | null {
    return this.#startAt;
  }

  /** The start position used the hand-back target. */
  clearStartAt(): void {
    this.#startAt = null;
  }

  /** A callback asked to hand the session to people; it starts when the steps end (`start`). The last request wins. */
  request(request: HandoffRequest, nodeId: number): void {
    this.#request = { request, nodeId };
  }

  /** `context.handoff(request)` of node `nodeId`: validated like a `handoff` output (`INVALID_CALLBACK_OUTPUT`). */
  requestFromContext(request: unknown, nodeId: number): void {
    const check = new OutputChecker(nodeId, 'context.handoff');
    const checked = validateHandoffRequest(check, request, 'request');
    if (!checked) check.fail('request', 'a handoff request { reason, … }', request);
    else this.request(checked, nodeId);
  }

  /**
   * At the start of the turn: the user's message (typed or selected) is the handoff's return option,
   * so the handoff ends and the message runs through the tree. Returns the `end` transition, or `null`.
   */
  endIfReturning(message: string, selectedOption: string | null): HandoffTransition | null {
    if (!this.#state || !isReturnOption(this.#state, message, selectedOption)) return null;
    this.#state = null;
    return { type: 'end', outcome: 'user-returned', operator: null, nodeTarget: null };
  }

  /** People still have the session: the `held` transition (the message is kept for them), or `null`. */
  hold(): { type: 'held'; queue: string } | null {
    return this.#state ? { type: 'held', queue: this.#state.queue } : null;
  }

  /** At the end of the steps: the requested handoff starts (its state and transition), or `null` when none was asked for. */
  start(
    turn: number,
    at: string,
    localize: (text: LocalizedText) => string,
  ): (StartedHandoff & { nodeId: number }) | null {
    if (!this.#request) return null;
    const { request, nodeId } = this.#request;
    this.#request = null;
    const state = startedHandoff(request, nodeId, turn, at, localize);
    this.#state = state;
    return { state, nodeId, transition: { type: 'start', queue: state.queue, reason: state.reason, nodeId } };
  }

  /** The webhook events of the turn's commit: a handoff that started or ended in it (docs/handoff.md). */
  eventsOf(sessionId: string, commit: SessionCommit): HandoffEvent[] {
    return handoffEventsOf(sessionId, this.#loaded, commit.record.handoff, commit.history);
  }
}
