import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback OpenAI-compatible server for tests: answers `POST /v1/chat/completions` (not streamed) with `answer(body)`, and records each request's body. */
export interface LoopbackOpenAi {
  /** `http://127.0.0.1:<port>/v1` */
  baseURL: string;
  requests: { messages?: { role: string; content: unknown }[]; stream?: boolean }[];
  close(): Promise<void>;
}

export async function startLoopbackOpenAi(answer: (body: unknown) => string): Promise<LoopbackOpenAi> {
  const requests: LoopbackOpenAi['requests'] = [];
  const server: Server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => {
      text += chunk;
    });
    request.on('end', () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `No route ${request.method} ${request.url}` } }));
        return;
      }
      const body = JSON.parse(text) as LoopbackOpenAi['requests'][number];
      requests.push(body);
      if (body.stream) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'This test server does not stream.' } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: 'loopback',
          choices: [
            { index: 0, message: { role: 'assistant', content: answer(body) }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
