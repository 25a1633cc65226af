/** One message of a `text/event-stream`: its `event` field (default `message`) and its joined `data` lines. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

const BOUNDARY = /\r?\n\r?\n/;

/** Parses a `text/event-stream` body into messages as they arrive (comments and `id`/`retry` fields ignored). */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let match = BOUNDARY.exec(buffer);
      while (match) {
        const message = parseBlock(buffer.slice(0, match.index));
        buffer = buffer.slice(match.index + match[0].length);
        if (message) yield message;
        match = BOUNDARY.exec(buffer);
      }
    }
    const message = parseBlock(buffer);
    if (message) yield message;
  } finally {
    reader.releaseLock();
  }
}

/** One block of lines between blank lines; `null` when it has no `data`. */
export function parseBlock(block: string): ServerSentEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  return data.length ? { event, data: data.join('\n') } : null;
}
