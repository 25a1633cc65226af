import { defineTree, type NodeDefinition, TreeAgent, type TreeAgentOptions } from '@treeagent/core';
import type { ModelRequest } from '@treeagent/core/adapter';
import { ExactEmbedder, ScriptedLanguageModel } from '@treeagent/core/test';
import { createApp } from '../app.js';
import type { CreateAppOptions } from '../app-options.js';

/** Messages that route to each node: the embedder gives them the same vector as the node's chunk. */
export const VECTORS: Record<string, number[]> = {
  hello: [1, 0, 0, 0, 0],
  story: [0, 1, 0, 0, 0],
  wait: [0, 0, 1, 0, 0],
  fail: [0, 0, 0, 1, 0],
  double: [0, 0, 0, 0, 1],
};

/** A promise a test opens when it wants. */
export interface Gate {
  promise: Promise<void>;
  open(): void;
  /** Resolves when a turn reached the gate. */
  reached: Promise<void>;
  arrive(): void;
}

export function createGate(): Gate {
  let open!: () => void;
  let arrive!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  return { promise, open, reached, arrive };
}

export interface TestAgentOptions extends Omit<TreeAgentOptions, 'tree'> {
  /** The `wait` node's emit callback awaits it. */
  gate?: Gate;
  /** The `before` callback of the greeting node (3). */
  greetBefore?: () => void;
  /** The scripted model's answer for GENERATED messages. */
  answer?: string | ((request: ModelRequest) => string | Promise<string>);
}

/**
 * A small tree for the server's tests:
 * - `hello` → node 3, a static message with options;
 * - `story` → node 4, a GENERATED message streamed by the scripted model;
 * - `wait` → node 5, a message whose emit callback awaits the test's gate;
 * - `fail` → node 6, whose emit callback throws (`CALLBACK_ERROR`, no fallback);
 * - `double` → node 7, a mute message followed by node 8's message in the same turn;
 * - anything else → no match.
 */
export function testNodes(options: TestAgentOptions = {}): NodeDefinition[] {
  const gate = options.gate;
  return [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'shop' },
    {
      id: 3,
      type: 'emit',
      parent: 2,
      name: 'greet',
      chunks: ['hello'],
      ...(options.greetBefore ? { before: options.greetBefore } : {}),
      emit: { message: { type: 'static', content: 'Hi! How can I help?' }, options: ['Orders', 'Returns'] },
    },
    {
      id: 4,
      type: 'emit',
      parent: 2,
      name: 'story',
      chunks: ['story'],
      prompt: (_self, context) => ({ prompt: `Tell a story about ${context.input.original}` }),
      emit: { message: { type: 'generated' }, sources: [{ title: 'Tales', content: 'Once upon a time' }] },
    },
    {
      id: 5,
      type: 'emit',
      parent: 2,
      chunks: ['wait'],
      emit: async () => {
        gate?.arrive();
        await gate?.promise;
        return { message: { type: 'static', content: 'Done waiting.' } };
      },
    },
    {
      id: 6,
      type: 'emit',
      parent: 2,
      chunks: ['fail'],
      emit: () => {
        throw new Error('the database password is wrong');
      },
    },
    {
      id: 7,
      type: 'emit',
      parent: 2,
      isMute: true,
      chunks: ['double'],
      emit: { message: { type: 'static', content: 'First.' } },
      links: { next: 8 },
      after: (_self, _context, _special, links) => ({ nodeTarget: links.next, step: 'before' }),
    },
    { id: 8, type: 'emit', parent: 7, emit: { message: { type: 'static', content: 'Second.' } } },
  ];
}

export function testAgent(options: TestAgentOptions = {}): TreeAgent {
  const { gate: _gate, greetBefore: _greetBefore, answer, ...agentOptions } = options;
  const model = new ScriptedLanguageModel({
    answers:
      typeof answer === 'function' ? (request) => answer(request) : (answer ?? 'Once upon a time, a bike.'),
  });
  return new TreeAgent({
    tree: defineTree({ name: 'test-shop', nodes: testNodes(options) }),
    embedder: new ExactEmbedder({ vectors: VECTORS }),
    models: model,
    ...agentOptions,
  });
}

/** A logger that keeps what it is given, so tests stay quiet and can assert on it. */
export function memoryLogger() {
  const entries: { message: string; details: unknown }[] = [];
  return { entries, error: (message: string, details?: unknown) => entries.push({ message, details }) };
}

/** An app over the test agent, with a quiet logger. */
export function testApp(options: Partial<CreateAppOptions> & { agentOptions?: TestAgentOptions } = {}) {
  const { agentOptions, ...appOptions } = options;
  const agent = appOptions.agent ?? testAgent(agentOptions);
  const logger = memoryLogger();
  const app = createApp({ logger, ...appOptions, agent });
  return { app, agent, logger };
}

type App = ReturnType<typeof createApp>;

/** Creates a session through the API. */
export async function createSession(
  app: App,
  headers: Record<string, string> = {},
): Promise<{ sessionId: string; token: string }> {
  const response = await app.request('/api/v1/sessions', { method: 'POST', headers });
  if (response.status !== 201)
    throw new Error(`session creation failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { sessionId: string; token: string };
}

/** Sends a JSON message to a session. */
export function postMessage(
  app: App,
  session: { sessionId: string; token: string },
  body: unknown,
  options: { headers?: Record<string, string>; query?: string } = {},
): Promise<Response> {
  return request(app, `/api/v1/sessions/${session.sessionId}/messages${options.query ?? ''}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Session-Token': session.token, ...options.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** `app.request` as a promise. */
export async function request(app: App, path: string, init?: RequestInit): Promise<Response> {
  return app.request(path, init);
}

/** Parses a server-sent-events body into its messages. */
export function parseSse(text: string): { event: string | null; data: string }[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length) ?? null;
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      return { event, data };
    });
}
