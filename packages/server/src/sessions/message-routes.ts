import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import type { StreamErrorEvent } from '../api-types.js';
import { FileId } from '../files/session-files.js';
import { readJson, validate } from '../http/read-json.js';
import { requestLanguage } from '../i18n/request-language.js';
import type { Services } from '../services.js';
import { clientEvent, clientOutput } from '../turns/client-view.js';
import { eventsAfterStart, TurnRunner } from '../turns/turn-runner.js';

const MessageQuery = z.strictObject({ stream: z.enum(['true', 'false', '1', '0']).optional() });

function messageBody(maxAttachments: number) {
  return z
    .strictObject({
      // Text, or a pick alone: `{ selectedOption }` is the user's click on an option.
      message: z.string().default(''),
      selectedOption: z.string().min(1).max(1000).optional(),
      attachments: z.array(FileId).max(maxAttachments).optional(),
      clientMetadata: z.record(z.string(), z.unknown()).optional(),
    })
    .refine((body) => body.message.trim() !== '' || body.selectedOption !== undefined, {
      message:
        'the message is empty: send some text (message), or an option the user picked (selectedOption)',
      path: ['message'],
    });
}

/** Whether the client asked for a server-sent-events stream. */
function wantsStream(accept: string | undefined, stream: string | undefined): boolean {
  if (stream !== undefined) return stream === 'true' || stream === '1';
  return (accept ?? '').includes('text/event-stream');
}

/**
 * `POST /sessions/:id/messages` with `{ message, selectedOption?, attachments?: [fileId], clientMetadata? }`:
 * the `AgentOutput` as JSON, or (with `Accept: text/event-stream` or `?stream=true`) the turn's events
 * as server-sent events: `event: <type>`, `data: <json>`, the last one `turn-end` or `error`.
 */
export function messageRoutes(services: Services): Hono {
  const routes = new Hono();
  const body = messageBody(services.limits.maxAttachments);

  routes.post('/:id/messages', async (c) => {
    const sessionId = c.req.param('id');
    const query = validate(MessageQuery, c.req.query(), 'query');
    services.messageLimits.countAddress(c);
    services.messageLimits.countSession(sessionId);
    const input = await readJson(c, body);
    const turn = await services.turns.startCounted({
      sessionId,
      message: input.message,
      signal: c.req.raw.signal,
      ...(input.attachments === undefined ? {} : { attachments: input.attachments }),
      ...(input.selectedOption === undefined ? {} : { selectedOption: input.selectedOption }),
      ...(input.clientMetadata === undefined ? {} : { clientMetadata: input.clientMetadata }),
    });
    if (!wantsStream(c.req.header('accept'), query.stream)) {
      return c.json(clientOutput(await TurnRunner.output(turn), services.debug));
    }
    const events = await eventsAfterStart(turn);
    const language = requestLanguage(c, services.locale);
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => turn.abort(new Error('the client disconnected')));
      for await (const event of events) {
        if (event.type === 'error') {
          const error = turn.apiError(event.error);
          const data: StreamErrorEvent = { type: 'error', status: error.status, ...error.toBody(language) };
          await stream.writeSSE({ event: 'error', data: JSON.stringify(data) });
          continue;
        }
        const visible = clientEvent(event, services.debug);
        if (visible) await stream.writeSSE({ event: event.type, data: JSON.stringify(visible) });
      }
    });
  });

  return routes;
}
