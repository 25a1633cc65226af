import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { isExpired } from '../auth/session-expiry.js';
import { ApiError, invalidRequest } from '../errors/api-error.js';
import { openAiErrorBody } from '../errors/openai-error.js';
import { resolveAttachments } from '../files/session-files.js';
import { characterCount } from '../http/character-count.js';
import { readJson } from '../http/read-json.js';
import type { Services } from '../services.js';
import { eventsAfterStart, TurnRunner } from '../turns/turn-runner.js';
import { ChatCompletionRequest, lastUserText } from './chat-schemas.js';
import { chatSession } from './chat-session.js';
import {
  chatCompletion,
  chatCompletionChunk,
  completionId,
  treeAgentExtension,
  unixSeconds,
  usageChunk,
} from './completion-objects.js';
import { ContentDeltas } from './content-deltas.js';
import { heldTurnText } from './handoff-reply.js';

/**
 * The OpenAI-compatible endpoints: `GET /models` (one model: the tree's name) and
 * `POST /chat/completions` (the last `user` message is the turn's input; `stream: true` sends
 * `chat.completion.chunk`s and `data: [DONE]`). Errors use OpenAI's body shape.
 */
export function openAiRoutes(services: Services): Hono {
  const routes = new Hono();
  const model = () => ({
    id: services.agent.tree.name,
    object: 'model' as const,
    created: unixSeconds(services.startedAt),
    owned_by: 'treeagent',
  });

  routes.get('/models', (c) => c.json({ object: 'list', data: [model()] }));

  routes.get('/models/:model', (c) => {
    if (c.req.param('model') !== services.agent.tree.name) throw unknownModel(c.req.param('model'), services);
    return c.json(model());
  });

  routes.post('/chat/completions', async (c) => {
    services.messageLimits.countAddress(c);
    const body = await readJson(c, ChatCompletionRequest);
    const modelName = services.agent.tree.name;
    if (body.model !== modelName) throw unknownModel(body.model, services);
    const text = lastUserText(body.messages);
    if (text === null)
      throw invalidRequest('The messages contain no "user" message: the last one is the input.', {
        param: 'messages',
      });
    const extension = body.treeagent ?? {};
    if (text.trim() === '' && extension.selectedOption === undefined) {
      throw invalidRequest('The last user message is empty: send some text, or treeagent.selectedOption.', {
        param: 'messages',
      });
    }
    const { maxMessageLength } = services.limits;
    const characters = characterCount(text);
    if (characters > maxMessageLength) {
      throw new ApiError(
        413,
        'PAYLOAD_TOO_LARGE',
        `The last user message has ${characters} characters; the limit is ${maxMessageLength}.`,
        {
          details: { param: 'messages', maxMessageLength },
        },
      );
    }
    const session = await chatSession(c, body.user, services.tokens, services.apiKeysConfigured);
    services.messageLimits.countSession(session.engineId);
    if (session.engineId !== session.id) await trackConversation(services, session.engineId);
    const attachments = await resolveAttachments(
      services.agent.fileStore,
      session.engineId,
      extension.attachments,
    );
    const turn = services.runner.start({
      sessionId: session.engineId,
      message: text,
      attachments,
      signal: c.req.raw.signal,
      ...(extension.selectedOption === undefined ? {} : { selectedOption: extension.selectedOption }),
      ...(extension.clientMetadata === undefined ? {} : { clientMetadata: extension.clientMetadata }),
    });
    c.header('X-Session-Id', session.id);
    c.header('Cache-Control', 'no-store');
    const head = { id: completionId(), created: unixSeconds(), model: modelName };

    if (!body.stream) {
      const output = await TurnRunner.output(turn);
      const completion = chatCompletion(head, output, treeAgentExtension(output, session.id, services.debug));
      // With people: the operators' replies since the last message, or the queued notice.
      const held = await heldTurnText(services.agent, session.engineId, output);
      if (held !== null) completion.choices[0]!.message.content = held;
      return c.json(completion);
    }

    const events = await eventsAfterStart(turn);
    const includeUsage = body.stream_options?.include_usage === true;
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => turn.abort(new Error('the client disconnected')));
      const send = (data: unknown) => stream.writeSSE({ data: JSON.stringify(data) });
      await send(chatCompletionChunk(head, { role: 'assistant', content: '' }));
      const deltas = new ContentDeltas();
      for await (const event of events) {
        const content = deltas.next(event);
        if (content !== null) await send(chatCompletionChunk(head, { content }));
        if (event.type === 'turn-end') {
          const held = await heldTurnText(services.agent, session.engineId, event.output);
          if (held !== null) await send(chatCompletionChunk(head, { content: held }));
          const ext = treeAgentExtension(event.output, session.id, services.debug);
          await send(chatCompletionChunk(head, {}, 'stop', ext));
          if (includeUsage) await send(usageChunk(head));
          await stream.writeSSE({ data: '[DONE]' });
        } else if (event.type === 'error') {
          await send(openAiErrorBody(turn.apiError(event.error)));
        }
      }
    });
  });

  return routes;
}

function unknownModel(name: string, services: Services): ApiError {
  return new ApiError(
    404,
    'NOT_FOUND',
    `The model "${name}" does not exist. This server has one model, the tree "${services.agent.tree.name}" (GET /v1/models).`,
    { details: { param: 'model' } },
  );
}

/** The token hash of a conversation of this endpoint: none (no token can match an empty hash). */
const NO_TOKEN = '';

/**
 * Conversations of this endpoint expire like JSON-API sessions: they are tracked in the session
 * tokens store (with no usable token), so idle and absolute expiry and the sweep apply to them. An
 * expired conversation is deleted and starts over.
 */
async function trackConversation(services: Services, engineId: string): Promise<void> {
  const { tokens } = services;
  if (!tokens.info) return;
  const info = await tokens.info(engineId);
  if (info && !(await isExpired(tokens, engineId, services.expiry, new Date()))) return;
  if (info) {
    await services.agent.deleteSession(engineId);
    await tokens.delete(engineId);
  }
  await tokens.save(engineId, NO_TOKEN);
}
