import { describe, expect, it } from 'vitest';
import { readServerSentEvents } from './server-sent-events';

/** A body that arrives in the given chunks, as a network would cut it. */
function body(...chunks: string[]): ReadableStream<Uint8Array<ArrayBuffer>> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk) as Uint8Array<ArrayBuffer>);
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array<ArrayBuffer>>) {
  const messages = [];
  for await (const message of readServerSentEvents(stream)) messages.push(message);
  return messages;
}

describe('readServerSentEvents', () => {
  it('yields each message with its event name, whatever the chunks cut', async () => {
    const text = 'event: turn-start\ndata: {"turn":1}\n\nevent: text-delta\ndata: {"delta":"Ci"}\n\n';
    const expected = [
      { event: 'turn-start', data: '{"turn":1}' },
      { event: 'text-delta', data: '{"delta":"Ci"}' },
    ];
    expect(await all(body(text))).toEqual(expected);
    expect(await all(body(...text.split('')))).toEqual(expected);
  });

  it('joins data lines, skips comments and blocks without data, reads CRLF and a last block without a blank line', async () => {
    const messages = await all(
      body(': keep-alive\r\n\r\nevent: x\r\n\r\ndata: a\r\ndata: b\r\n\r\ndata: last'),
    );
    expect(messages).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'message', data: 'last' },
    ]);
  });
});
