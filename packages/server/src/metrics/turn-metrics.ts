import type { AgentEvent } from '@treeagent/core';
import type { TurnObserver } from '../turns/turn-observer.js';
import { Counter, Gauge, Histogram, MetricsRegistry } from './prometheus.js';

const TURN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const MODEL_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The server's Prometheus metrics, computed from the engine's events:
 * - `treeagent_turns_total{status}`: turns finished, by status (`answered`, `no-match`, `fallback-no-match`, `fallback-error`, `error`);
 * - `treeagent_errors_total{code}`: turns that failed, by error code;
 * - `treeagent_model_calls_total{model,purpose}`: language model calls;
 * - `treeagent_tool_calls_total{tool,outcome}`: tool calls, by tool name and outcome (`ok` or the error code);
 * - `treeagent_turn_duration_seconds{status}` and `treeagent_model_call_duration_seconds{model}`: histograms;
 * - `treeagent_turns_in_flight`: turns running now.
 */
export class TurnMetrics {
  readonly registry = new MetricsRegistry();
  readonly turns = this.registry.register(
    new Counter(
      'treeagent_turns_total',
      'Turns finished, by status (answered, no-match, fallback-no-match, fallback-error, error).',
    ),
  );
  readonly errors = this.registry.register(
    new Counter('treeagent_errors_total', 'Turns that failed, by error code.'),
  );
  readonly modelCalls = this.registry.register(
    new Counter('treeagent_model_calls_total', 'Language model calls, by model and purpose.'),
  );
  readonly toolCalls = this.registry.register(
    new Counter(
      'treeagent_tool_calls_total',
      'Tool calls of llm and emit nodes, by tool and outcome (ok or the error code).',
    ),
  );
  readonly turnDuration = this.registry.register(
    new Histogram('treeagent_turn_duration_seconds', 'Duration of turns, by status.', TURN_BUCKETS),
  );
  readonly modelCallDuration = this.registry.register(
    new Histogram(
      'treeagent_model_call_duration_seconds',
      'Duration of language model calls, by model.',
      MODEL_BUCKETS,
    ),
  );

  constructor(inFlight: () => number) {
    this.registry.register(new Gauge('treeagent_turns_in_flight', 'Turns running now.', inFlight));
  }

  /** An observer for one turn; it records the turn when its `turn-end` or `error` event arrives. */
  observeTurn(): TurnObserver {
    const started = performance.now();
    const finish = (status: string, seconds: number) => {
      this.turns.inc({ status });
      this.turnDuration.observe({ status }, seconds);
    };
    return {
      event: (event: AgentEvent) => {
        if (event.type === 'model-call') {
          this.modelCalls.inc({ model: event.modelId, purpose: event.purpose });
          this.modelCallDuration.observe({ model: event.modelId }, event.durationMs / 1000);
        } else if (event.type === 'tool-result') {
          this.toolCalls.inc({ tool: event.toolName, outcome: event.error ?? 'ok' });
        } else if (event.type === 'turn-end') {
          finish(event.output.status, event.durationMs / 1000);
        } else if (event.type === 'error') {
          this.errors.inc({ code: event.error.code });
          finish('error', (performance.now() - started) / 1000);
        }
      },
      end: () => {},
    };
  }

  /** The metrics in the Prometheus text format. */
  render(): string {
    return this.registry.render();
  }
}
