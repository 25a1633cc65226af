import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { AgentEvent } from '@treeagent/core';
import type { TurnObserver } from '../turns/turn-observer.js';

/** Name of the tracer the server uses when none is given. */
export const TRACER_NAME = '@treeagent/server';

/** A traced turn: its observer, and the context to run the turn in so nested spans find it. */
export interface TracedTurn {
  observer: TurnObserver;
  /** The active context with the turn span set. */
  context: Context;
}

/**
 * Builds OpenTelemetry spans from a turn's events, using only `@opentelemetry/api` (which
 * exporter, if any, is the application's choice):
 * - `treeagent.turn` for the turn (attributes `treeagent.session.id`, `treeagent.turn`,
 *   `treeagent.status`, `treeagent.node.id`, `treeagent.tree.name`; `treeagent.error.code` on error);
 * - `treeagent.step.<explore|before|execute|after>` children, with `treeagent.node.id`; explore
 *   decisions are span events with the best chunk's similarity and the threshold;
 * - `treeagent.model_call` children of the step that made the call (or of the turn), with
 *   `treeagent.model.id`, `treeagent.model.purpose`, `treeagent.node.id`.
 */
export class TurnTracing {
  readonly #tracer: Tracer;
  readonly #redact: (text: string) => string;

  /** @param redact Applied to the error messages spans carry (the agent's redaction, docs/privacy.md). */
  constructor(
    tracer: Tracer = trace.getTracer(TRACER_NAME),
    redact: (text: string) => string = (text) => text,
  ) {
    this.#tracer = tracer;
    this.#redact = redact;
  }

  startTurn(attributes: { sessionId: string; treeName: string }): TracedTurn {
    const turnSpan = this.#tracer.startSpan('treeagent.turn', {
      attributes: {
        'treeagent.session.id': attributes.sessionId,
        'treeagent.tree.name': attributes.treeName,
      },
    });
    const turnContext = trace.setSpan(context.active(), turnSpan);
    let step: Span | null = null;
    let stepName: string | null = null;
    let ended = false;
    const child = (name: string, attributes: Attributes, startTime?: number) =>
      this.#tracer.startSpan(
        name,
        { attributes, ...(startTime === undefined ? {} : { startTime }) },
        trace.setSpan(turnContext, step ?? turnSpan),
      );
    const endStep = () => {
      step?.end();
      step = null;
      stepName = null;
    };
    const openStep = (name: string, nodeId: number): Span => {
      endStep();
      stepName = name;
      step = this.#tracer.startSpan(
        `treeagent.step.${name}`,
        { attributes: { 'treeagent.node.id': nodeId, 'treeagent.step': name } },
        turnContext,
      );
      return step;
    };

    const observer: TurnObserver = {
      event: (event: AgentEvent) => {
        switch (event.type) {
          case 'turn-start':
            turnSpan.setAttribute('treeagent.turn', event.turn);
            if (event.fittedSpace) turnSpan.setAttribute('treeagent.explore.fitted_space', event.fittedSpace);
            break;
          case 'step-start':
            openStep(event.step, event.nodeId);
            break;
          case 'step-end':
            endStep();
            break;
          case 'explore-decision':
            (stepName === 'explore' && step ? step : openStep('explore', event.nodeId)).addEvent(
              'treeagent.explore.decision',
              exploreAttributes(event),
            );
            break;
          case 'explore-end':
            step?.setAttribute('treeagent.explore.reached_node.id', event.nodeId);
            endStep();
            break;
          case 'model-call': {
            const now = Date.now();
            const span = child(
              'treeagent.model_call',
              {
                'treeagent.node.id': event.nodeId,
                'treeagent.model.id': event.modelId,
                'treeagent.model.purpose': event.purpose,
                'treeagent.model.attempt': event.attempt,
              },
              now - event.durationMs,
            );
            span.end(now);
            break;
          }
          case 'tool-result': {
            // The tool's name, step and outcome: never its arguments or result (they may be personal data).
            const now = Date.now();
            const span = child(
              'treeagent.tool_call',
              {
                'treeagent.node.id': event.nodeId,
                'treeagent.tool.name': event.toolName,
                'treeagent.tool.step': event.step,
                ...(event.error ? { 'treeagent.error.code': event.error } : {}),
              },
              now - event.durationMs,
            );
            if (event.error) span.setStatus({ code: SpanStatusCode.ERROR, message: event.error });
            span.end(now);
            break;
          }
          case 'callback-end':
            (step ?? turnSpan).addEvent('treeagent.callback', {
              'treeagent.node.id': event.nodeId,
              'treeagent.callback': event.callback,
              'treeagent.duration_ms': event.durationMs,
            });
            break;
          case 'fallback':
            turnSpan.addEvent('treeagent.fallback', {
              'treeagent.agent.id': event.agentId,
              'treeagent.error.code': event.error.code,
              // Where it failed, not the message (it may quote what the user wrote).
              ...(event.error.nodeId === undefined ? {} : { 'treeagent.error.node.id': event.error.nodeId }),
              ...(event.error.callback === undefined
                ? {}
                : { 'treeagent.error.callback': event.error.callback }),
              'treeagent.node.target': event.nodeTarget,
            });
            break;
          case 'no-match':
            turnSpan.addEvent('treeagent.no_match', { 'treeagent.agent.id': event.agentId });
            break;
          case 'fail-counter':
            turnSpan.addEvent('treeagent.fail_counter', {
              'treeagent.node.id': event.nodeId,
              'treeagent.fail_counter': event.value,
              'treeagent.fail_counter.reason': event.reason,
            });
            break;
          case 'turn-end':
            turnSpan.setAttribute('treeagent.status', event.output.status);
            if (event.output.nodeId !== null) turnSpan.setAttribute('treeagent.node.id', event.output.nodeId);
            turnSpan.setStatus({ code: SpanStatusCode.OK });
            break;
          case 'error':
            turnSpan.setAttribute('treeagent.status', 'error');
            turnSpan.setAttribute('treeagent.error.code', event.error.code);
            if (event.error.nodeId !== undefined)
              turnSpan.setAttribute('treeagent.node.id', event.error.nodeId);
            step?.setStatus({ code: SpanStatusCode.ERROR, message: event.error.code });
            turnSpan.setStatus({
              code: SpanStatusCode.ERROR,
              message: `${event.error.code}: ${this.#redact(event.error.message)}`,
            });
            break;
          default:
            break;
        }
      },
      end: () => {
        if (ended) return;
        ended = true;
        endStep();
        turnSpan.end();
      },
    };
    return { observer, context: turnContext };
  }
}

function exploreAttributes(event: Extract<AgentEvent, { type: 'explore-decision' }>): Attributes {
  return {
    'treeagent.node.id': event.nodeId,
    'treeagent.explore.action': event.action,
    'treeagent.explore.moved': event.moved,
    'treeagent.explore.next_node.id': event.nextNodeId,
    ...(event.threshold === null ? {} : { 'treeagent.explore.threshold': event.threshold }),
    ...(event.thresholdSource ? { 'treeagent.explore.threshold_source': event.thresholdSource } : {}),
    ...(event.best
      ? {
          'treeagent.explore.best.chunk.id': String(event.best.chunkId),
          'treeagent.explore.best.node.id': event.best.nodeId,
          'treeagent.explore.best.child.id': event.best.childId,
          'treeagent.explore.best.similarity': event.best.similarity,
        }
      : {}),
  };
}
