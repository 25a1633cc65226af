import { describe, expect, it } from 'vitest';
import { createSession, parseSse, postMessage, testApp } from '../test-support/fixtures.js';
import { toolAgent } from '../test-support/tool-agent.js';

async function stream(debug: boolean) {
  const { app } = testApp({ agent: toolAgent(), debug });
  const session = await createSession(app);
  const response = await postMessage(
    app,
    session,
    { message: 'hello' },
    { headers: { Accept: 'text/event-stream' } },
  );
  const text = await response.text();
  return {
    text,
    events: parseSse(text).map((event) => ({ type: event.event, data: JSON.parse(event.data) })),
  };
}

describe('tool events over HTTP', () => {
  it('outside debug mode, the stream says which tool runs but not its arguments or result', async () => {
    const { text, events } = await stream(false);
    const call = events.find((event) => event.type === 'tool-call')!.data;
    const result = events.find((event) => event.type === 'tool-result')!.data;
    expect(call).toEqual({
      type: 'tool-call',
      nodeId: 3,
      toolCallId: 'call-1-1',
      toolName: 'customer',
      step: 1,
    });
    expect(result).toMatchObject({
      type: 'tool-result',
      toolName: 'customer',
      durationMs: expect.any(Number),
    });
    expect(result).not.toHaveProperty('output');
    expect(text).not.toContain('333 1234567');
    expect(text).not.toContain('mario@example.com');
    expect(events.at(-1)!.data.output.messages[0].content).toBe('Bentornato, Mario!');
  });

  it('in debug mode, the stream and the trace carry the arguments and the result', async () => {
    const { events } = await stream(true);
    expect(events.find((event) => event.type === 'tool-call')!.data.input).toEqual({
      phone: '+39 333 1234567',
    });
    expect(events.find((event) => event.type === 'tool-result')!.data.output).toEqual({
      name: 'Mario Rossi',
      email: 'mario@example.com',
    });
    const trace = events.at(-1)!.data.output.trace as { type: string }[];
    expect(trace.map((event) => event.type)).toEqual(expect.arrayContaining(['tool-call', 'tool-result']));
  });

  it('a tool that fails (no fallback): the error is logged without the arguments', async () => {
    const { app, logger } = testApp({ agent: toolAgent(true) });
    const session = await createSession(app);
    const response = await postMessage(app, session, { message: 'hello' });
    expect(response.status).toBe(500);
    expect(JSON.stringify(logger.entries)).toContain('tools.customer');
    expect(JSON.stringify(logger.entries)).not.toContain('333 1234567');
  });

  it('the OpenAI-compatible endpoint runs the tools on the server and answers with content only', async () => {
    const { app } = testApp({ agent: toolAgent() });
    const plain = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'tools-shop', messages: [{ role: 'user', content: 'hello' }] }),
    });
    const body = (await plain.json()) as Record<string, any>;
    expect(body.choices[0]).toMatchObject({
      message: { role: 'assistant', content: 'Bentornato, Mario!' },
      finish_reason: 'stop',
    });
    expect(body.choices[0].message.tool_calls).toBeUndefined();

    const streamed = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: 'tools-shop',
        stream: true,
        messages: [{ role: 'user', content: 'hello' }],
      }),
    });
    const text = await streamed.text();
    expect(text).not.toContain('tool_calls');
    expect(text).not.toContain('333 1234567');
    expect(text).toContain('"finish_reason":"stop"');
  });

  it('counts tool calls in /metrics by tool and outcome, with no argument in any label', async () => {
    const { app } = testApp({ agent: toolAgent() });
    const session = await createSession(app);
    await postMessage(app, session, { message: 'hello' });
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('treeagent_tool_calls_total{tool="customer",outcome="ok"} 1');
    expect(metrics).not.toContain('333 1234567');
  });
});
