import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted answer: text (streamed in word chunks when the client asks to stream), tool calls (the
 * arguments streamed in pieces, as OpenAI does: the id and name first, then `arguments` fragments),
 * or an HTTP error.
 */
export type FakeAnswer =
  | string
  | { status: number; body?: unknown }
  | { brokenStreamAfter: string }
  | FakeToolCalls;

/** An answer that calls tools: `arguments` is the JSON text the model writes (it may be invalid on purpose). */
export interface FakeToolCalls {
  text?: string;
  toolCalls: { id?: string; name: string; arguments: string }[];
}

export interface FakeOpenAiServer {
  /** Base URL to give providers, ending in `/v1`. */
  baseURL: string;
  /** Every request body received on /v1/chat/completions, in order. */
  chatRequests: Record<string, any>[];
  embeddingRequests: Record<string, any>[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback that speaks the subset of the OpenAI API the AI SDK uses
 * (chat completions with and without streaming, `response_format`, embeddings). A test fixture:
 * the provider code paths under test are the real ones.
 */
export async function startFakeOpenAiServer(options: {
  answers: FakeAnswer[] | ((body: Record<string, any>, call: number) => FakeAnswer);
  embed?: (text: string) => number[];
}): Promise<FakeOpenAiServer> {
  const chatRequests: Record<string, any>[] = [];
  const embeddingRequests: Record<string, any>[] = [];
  const answerFor = (body: Record<string, any>): FakeAnswer => {
    const call = chatRequests.length;
    if (typeof options.answers === 'function') return options.answers(body, call);
    return options.answers[Math.min(call, options.answers.length) - 1] ?? '';
  };
  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.parse((await readBody(request)) || '{}');
    if (request.url === '/v1/embeddings') {
      embeddingRequests.push(body);
      const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
      const embed = options.embed ?? ((text: string) => [text.length, 1]);
      return json(response, 200, {
        object: 'list',
        data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
        model: body.model,
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      });
    }
    if (request.url !== '/v1/chat/completions')
      return json(response, 404, { error: { message: `no route ${request.url}` } });
    chatRequests.push(body);
    const answer = answerFor(body);
    if (typeof answer === 'object' && 'status' in answer) {
      return json(
        response,
        answer.status,
        answer.body ?? { error: { message: `scripted ${answer.status}`, type: 'server_error' } },
      );
    }
    if (typeof answer === 'object' && 'toolCalls' in answer)
      return toolCallAnswer(response, body, answer, chatRequests.length);
    const text = typeof answer === 'string' ? answer : answer.brokenStreamAfter;
    if (!body.stream) {
      return json(response, 200, {
        id: `chatcmpl-${chatRequests.length}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: `chatcmpl-${chatRequests.length}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    response.write(chunk({ role: 'assistant', content: '' }));
    for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
      response.write(chunk({ content: piece }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (typeof answer === 'object') {
      response.destroy();
      return;
    }
    response.write(chunk({}, 'stop'));
    response.write(
      `data: ${JSON.stringify({ id: 'usage', object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`,
    );
    response.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    chatRequests,
    embeddingRequests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Tool calls in OpenAI's chat-completions shapes: `message.tool_calls`, or streamed `delta.tool_calls` pieces. */
async function toolCallAnswer(
  response: ServerResponse,
  body: Record<string, any>,
  answer: FakeToolCalls,
  call: number,
): Promise<void> {
  const calls = answer.toolCalls.map((toolCall, index) => ({
    id: toolCall.id ?? `call_${call}_${index + 1}`,
    type: 'function',
    function: { name: toolCall.name, arguments: toolCall.arguments },
  }));
  if (!body.stream) {
    return json(response, 200, {
      id: `chatcmpl-${call}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: answer.text ?? null, tool_calls: calls },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: `chatcmpl-${call}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  response.write(chunk({ role: 'assistant', content: answer.text ? '' : null }));
  for (const piece of answer.text?.match(/\S+\s*|\s+/g) ?? []) response.write(chunk({ content: piece }));
  for (const [index, toolCall] of calls.entries()) {
    response.write(
      chunk({
        tool_calls: [
          {
            index,
            id: toolCall.id,
            type: 'function',
            function: { name: toolCall.function.name, arguments: '' },
          },
        ],
      }),
    );
    // The arguments arrive in fragments of a few characters, as real servers send them.
    for (const fragment of toolCall.function.arguments.match(/[\s\S]{1,7}/g) ?? []) {
      response.write(chunk({ tool_calls: [{ index, function: { arguments: fragment } }] }));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  response.write(chunk({}, 'tool_calls'));
  response.write(
    `data: ${JSON.stringify({ id: 'usage', object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`,
  );
  response.end('data: [DONE]\n\n');
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
