// @vitest-environment happy-dom
import type { HistoryEntry } from '@treeagent/core/client';
import { act } from 'preact/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../api/api-client';
import { renderInApp } from '../test-support/render';
import { type Conversation, useConversation } from './use-conversation';
import { useLiveSession } from './use-live-session';

/**
 * The chat's conversation with its live stream, as the chat page wires them, over a scripted server
 * (a mock, labelled: an `ApiClient` whose requests answer from the test, with streams the test
 * writes to and ends). The page itself, against the real server, is `chat-live-stream.browser.test.ts`.
 */
class ScriptedServer extends ApiClient {
  readonly requests: string[] = [];
  created = 0;
  /** Resolves the pending `POST /api/v1/sessions`. */
  createGate: Promise<void> = Promise.resolve();
  history: HistoryEntry[] = [];
  /** What the test writes to the open streams: `messages` (the turn), `events` (the live stream). */
  readonly streams = new Map<'messages' | 'events', ReadableStreamDefaultController<Uint8Array>>();

  override async request(path: string, init: RequestInit = {}): Promise<Response> {
    this.requests.push(`${init.method ?? 'GET'} ${path}`);
    if (path === '/api/v1/sessions') {
      await this.createGate;
      this.created += 1;
      return Response.json({ sessionId: `s${this.created}`, token: `t${this.created}` });
    }
    if (path.endsWith('/history')) return Response.json({ history: this.history });
    const kind = path.endsWith('/messages') ? 'messages' : path.includes('/events') ? 'events' : null;
    if (!kind) throw new Error(`The scripted server has no ${path}.`);
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => this.streams.set(kind, controller),
    });
    return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
  }

  write(kind: 'messages' | 'events', event: string, data: unknown): void {
    const controller = this.streams.get(kind);
    if (!controller) throw new Error(`No ${kind} stream is open.`);
    controller.enqueue(new TextEncoder().encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
  }
}

const entry = (role: HistoryEntry['role'], content: string, turn: number, more: Partial<HistoryEntry> = {}) =>
  ({ role, content, turn, at: '2026-12-06T10:00:00.000Z', ...more }) as HistoryEntry;

/** Renders the conversation and its live stream as the chat page does; the current one is `view.conversation`. */
async function renderConversation(api: ScriptedServer) {
  const view: { conversation: Conversation | null } = { conversation: null };
  function Harness() {
    const conversation = useConversation();
    view.conversation = conversation;
    useLiveSession(conversation.liveFrom, (row) => conversation.addFollowup(row));
    return null;
  }
  await renderInApp(<Harness />, { api });
  return view as { conversation: Conversation };
}

/** Lets pending promises, stream reads and renders run. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

afterEach(() => sessionStorage.clear());

describe('the conversation and its live stream', () => {
  it('keeps a followup the live stream brought while the turn was still answering', async () => {
    const api = new ScriptedServer();
    const view = await renderConversation(api);
    await act(async () => void (await view.conversation.startSession()));
    await settle();
    let ended: Promise<unknown> = Promise.resolve();
    await act(() => {
      ended = view.conversation.runTurn(
        { message: 'I want a human' },
        {
          text: 'I want a human',
          selectedOption: null,
          attachments: [],
        },
      );
    });
    await settle();
    api.write('messages', 'turn-start', { turn: 1 });
    await settle();
    // The team writes right after the turn: the live stream brings it before the turn's answer ends.
    const closed = entry('assistant', 'We are closed.', 1, { operator: { id: '', name: 'Night desk' } });
    api.write('events', 'entry', { index: 3, entry: closed });
    await settle();
    api.write('messages', 'turn-end', {
      output: { turn: 1, status: 'handed-off', messages: [], trace: [] },
      durationMs: 5,
    });
    api.streams.get('messages')?.close();
    await act(async () => void (await ended));
    await settle();
    expect(view.conversation.turns.map((turn) => turn.followups.map((row) => row.content))).toEqual([
      ['We are closed.'],
    ]);
  });

  it('the composer is free once the answer has come, before the server closes the stream', async () => {
    const api = new ScriptedServer();
    const view = await renderConversation(api);
    await act(async () => void (await view.conversation.startSession()));
    const user = (text: string) => ({ text, selectedOption: null, attachments: [] });
    let first: Promise<unknown> = Promise.resolve();
    await act(() => {
      first = view.conversation.runTurn({ message: 'hello' }, user('hello'));
    });
    await settle();
    expect(view.conversation.busy).toBe(true);
    api.write('messages', 'turn-start', { turn: 1 });
    api.write('messages', 'turn-end', {
      output: { turn: 1, status: 'answered', messages: [], trace: [] },
      durationMs: 5,
    });
    // The stream stays open (the server is still freeing the session): the turn is over all the same.
    const firstStream = api.streams.get('messages');
    await settle();
    expect(view.conversation.busy).toBe(false);
    expect(view.conversation.turns.map((turn) => turn.output?.status)).toEqual(['answered']);
    // The next message is sent at once, not dropped.
    await act(() => {
      void view.conversation.runTurn({ message: 'I want a human' }, user('I want a human'));
    });
    await settle();
    expect(api.requests.filter((request) => request.endsWith('/messages'))).toHaveLength(2);
    expect(view.conversation.turns).toHaveLength(2);
    firstStream?.close();
    await act(async () => void (await first));
  });

  it('a message sent while the first session is still starting goes to that session, not a second one', async () => {
    const api = new ScriptedServer();
    let open = () => {};
    api.createGate = new Promise((resolve) => {
      open = resolve;
    });
    const view = await renderConversation(api);
    let first: Promise<boolean> = Promise.resolve(false);
    let second: Promise<boolean> = Promise.resolve(false);
    await act(() => {
      first = view.conversation.startSession();
      second = view.conversation.ensureSession();
    });
    open();
    await act(async () => {
      expect(await first).toBe(true);
      expect(await second).toBe(true);
    });
    await settle();
    expect(api.created).toBe(1);
    expect(api.session?.sessionId).toBe('s1');
    expect(view.conversation.liveFrom).toEqual({ sessionId: 's1', after: 0 });
  });

  it('a restored session opens its live stream once, after the rows of its history', async () => {
    sessionStorage.setItem('treeagent.session', JSON.stringify({ sessionId: 's9', token: 't9' }));
    const api = new ScriptedServer();
    api.history = [
      entry('user', 'I want a human', 1),
      entry('assistant', 'An operator will answer you shortly.', 1),
      entry('assistant', 'Hello, Bruno here.', 1, { operator: { id: '', name: 'Bruno' } }),
    ];
    const view = await renderConversation(api);
    expect(view.conversation.liveFrom).toBeNull();
    await act(async () => void (await view.conversation.startSession()));
    await settle();
    expect(api.requests.filter((request) => request.includes('/events'))).toEqual([
      'GET /api/v1/sessions/s9/events?after=3',
    ]);
    // A row the stream replays after the history is shown once, after the restored ones.
    api.write('events', 'entry', {
      index: 4,
      entry: entry('assistant', 'Still there?', 1, { operator: { id: '', name: 'Bruno' } }),
    });
    await settle();
    expect(view.conversation.turns.flatMap((turn) => turn.followups.map((row) => row.content))).toEqual([
      'Hello, Bruno here.',
      'Still there?',
    ]);
  });
});
