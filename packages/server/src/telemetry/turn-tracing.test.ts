import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import { toolAgent } from '../test-support/tool-agent.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(provider);
});

afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

beforeEach(() => exporter.reset());

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const named = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);

describe('turn tracing', () => {
  it('makes a treeagent.turn span with step and model-call children built from the events', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    expect((await postMessage(app, session, { message: 'story' })).status).toBe(200);
    const spans = exporter.getFinishedSpans();

    const [turn] = named(spans, 'treeagent.turn');
    expect(turn!.attributes).toMatchObject({
      'treeagent.session.id': session.sessionId,
      'treeagent.turn': 1,
      'treeagent.status': 'answered',
      'treeagent.node.id': 4,
      'treeagent.tree.name': 'test-shop',
    });
    expect(turn!.status.code).toBe(SpanStatusCode.OK);
    const turnId = turn!.spanContext().spanId;

    const steps = spans.filter((span) => span.name.startsWith('treeagent.step.'));
    expect(steps.map((span) => span.name)).toEqual([
      'treeagent.step.explore',
      'treeagent.step.before',
      'treeagent.step.execute',
    ]);
    expect(steps.every((span) => parentOf(span) === turnId)).toBe(true);
    expect(steps.every((span) => span.attributes['treeagent.node.id'] !== undefined)).toBe(true);

    const [explore] = steps;
    expect(explore!.attributes['treeagent.explore.reached_node.id']).toBe(4);
    const decision = explore!.events.find((event) => event.name === 'treeagent.explore.decision')!;
    expect(decision.attributes).toMatchObject({
      'treeagent.node.id': 2,
      'treeagent.explore.action': 'descend',
      'treeagent.explore.best.similarity': 1,
      'treeagent.explore.best.node.id': 4,
      'treeagent.explore.threshold': 0.25,
    });

    const [modelCall] = named(spans, 'treeagent.model_call');
    const execute = steps[2]!;
    expect(parentOf(modelCall!)).toBe(execute.spanContext().spanId);
    expect(modelCall!.attributes).toMatchObject({
      'treeagent.node.id': 4,
      'treeagent.model.id': 'scripted',
      'treeagent.model.purpose': 'emit',
    });
    expect(execute.events.map((event) => event.attributes?.['treeagent.callback'])).toContain('prompt');
  });

  it('nests spans made inside callbacks under the turn span (context propagation)', async () => {
    const { app } = testApp({
      agentOptions: { greetBefore: () => trace.getTracer('callbacks').startSpan('db.lookup').end() },
    });
    const session = await createSession(app);
    await postMessage(app, session, { message: 'hello' });
    const spans = exporter.getFinishedSpans();
    const [turn] = named(spans, 'treeagent.turn');
    const [lookup] = named(spans, 'db.lookup');
    expect(lookup!.spanContext().traceId).toBe(turn!.spanContext().traceId);
    expect(parentOf(lookup!)).toBe(turn!.spanContext().spanId);
  });

  it('marks a failed turn as an error with its code', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    await postMessage(app, session, { message: 'fail' });
    const [turn] = named(exporter.getFinishedSpans(), 'treeagent.turn');
    expect(turn!.status.code).toBe(SpanStatusCode.ERROR);
    expect(turn!.attributes).toMatchObject({
      'treeagent.status': 'error',
      'treeagent.error.code': 'CALLBACK_ERROR',
    });
    expect(exporter.getFinishedSpans().every((span) => span.endTime[0] > 0)).toBe(true);
  });

  it('makes a treeagent.tool_call span per tool call, with the tool name and no arguments or result', async () => {
    const { app } = testApp({ agent: toolAgent() });
    const session = await createSession(app);
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);
    const spans = exporter.getFinishedSpans();
    const [tool] = named(spans, 'treeagent.tool_call');
    expect(tool!.attributes).toEqual({
      'treeagent.node.id': 3,
      'treeagent.tool.name': 'customer',
      'treeagent.tool.step': 1,
    });
    const everything = JSON.stringify(spans.map((span) => [span.attributes, span.events]));
    expect(everything).not.toContain('333 1234567');
    expect(everything).not.toContain('mario@example.com');
  });
});
