import { readFileSync } from 'node:fs';
import { TreeAgentError } from '@treeagent/core';
import { parse } from 'yaml';
import type { Conversation, ConversationFile, ConversationTurn, TurnExpectation } from './conversation.js';

const TURN_KEYS = ['say', 'option', 'attach', 'clientMetadata', 'restart', 'expect'];
const EXPECT_KEYS = [
  'node',
  'path',
  'message',
  'messages',
  'options',
  'state',
  'status',
  'error',
  'warning',
  'sources',
];

/** Reads a YAML conversation file, checking its shape with errors that name the file, conversation, turn and field. */
export function readConversationFile(path: string): ConversationFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new TreeAgentError('INVALID_INPUT', `Cannot read the conversation file ${path}: check the path.`);
  }
  return parseConversations(text, path);
}

/**
 * Parses the YAML text of a conversation file (a single conversation, or `conversations: [...]`).
 * Every problem of the file is reported at once, each naming the conversation, turn and field.
 */
export function parseConversations(text: string, path = 'conversations.yaml'): ConversationFile {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw invalid([`${path} is not valid YAML: ${(error as Error).message}`]);
  }
  if (!isObject(document)) throw invalid([`${path} must be a mapping with "turns" or "conversations".`]);
  const problems: string[] = [];
  const list = Array.isArray(document.conversations) ? document.conversations : [document];
  const conversations = list.map((item, index) =>
    conversation(item, `${path}, conversation ${index + 1}`, index, problems),
  );
  const fixtures = document.fixtures;
  if (fixtures !== undefined && !isObject(fixtures))
    problems.push(`${path}: "fixtures" must be a mapping with "model" and/or "embedder".`);
  else if (fixtures?.model !== undefined) fixtureModel(fixtures.model, `${path}, fixtures.model`, problems);
  if (problems.length) throw invalid(problems);
  return {
    path,
    ...(fixtures ? { fixtures: fixtures as ConversationFile['fixtures'] & object } : {}),
    conversations,
  };
}

/** Checks `fixtures.model`: `{ answers: [...] }`, each a text or `{ toolCalls: [{ toolName, input }] }`. */
function fixtureModel(value: unknown, where: string, problems: string[]): void {
  if (!isObject(value) || !Array.isArray(value.answers) || value.answers.length === 0) {
    problems.push(`${where} must be a mapping with a non-empty "answers" list.`);
    return;
  }
  value.answers.forEach((answer, index) => {
    if (typeof answer === 'string') return;
    const calls = isObject(answer) ? answer.toolCalls : undefined;
    const valid =
      Array.isArray(calls) &&
      calls.length > 0 &&
      calls.every((call) => isObject(call) && typeof call.toolName === 'string' && isObject(call.input));
    if (!valid)
      problems.push(
        `${where}, answer ${index + 1} must be a text or { toolCalls: [{ toolName, input: { … } }] }; got ${JSON.stringify(answer)}.`,
      );
  });
}

function conversation(value: unknown, where: string, index: number, problems: string[]): Conversation {
  const name = isObject(value) && typeof value.name === 'string' ? value.name : `conversation ${index + 1}`;
  if (!isObject(value)) {
    problems.push(`${where} must be a mapping with "name" and "turns".`);
    return { name, turns: [] };
  }
  if (!Array.isArray(value.turns) || value.turns.length === 0) {
    problems.push(`${where} needs a non-empty "turns" list.`);
    return { name, turns: [] };
  }
  const turns = value.turns.map((turn, position) =>
    conversationTurn(turn, `${where} ("${name}"), turn ${position + 1}`, problems),
  );
  return { name, ...(typeof value.session === 'string' ? { session: value.session } : {}), turns };
}

function conversationTurn(value: unknown, where: string, problems: string[]): ConversationTurn {
  const problem = (text: string) => problems.push(`${where} ${text}`);
  if (typeof value === 'string') return { say: value };
  if (!isObject(value)) {
    problem('must be a text or a mapping with "say" or "option".');
    return { say: '' };
  }
  for (const key of Object.keys(value))
    if (!TURN_KEYS.includes(key)) problem(`has an unknown field "${key}" (fields: ${TURN_KEYS.join(', ')}).`);
  if (typeof value.say !== 'string' && typeof value.option !== 'string')
    problem('needs "say" (a message) or "option" (an option to pick).');
  if (value.expect !== undefined) {
    if (!isObject(value.expect)) problem('"expect" must be a mapping.');
    else {
      for (const key of Object.keys(value.expect)) {
        if (!EXPECT_KEYS.includes(key))
          problem(`expects an unknown field "${key}" (fields: ${EXPECT_KEYS.join(', ')}).`);
      }
    }
  }
  if (value.restart !== undefined && typeof value.restart !== 'boolean')
    problem(
      '"restart" must be true or false (true: restart the agent before this turn; the session goes on from its store).',
    );
  if (value.attach !== undefined) {
    if (
      !Array.isArray(value.attach) ||
      value.attach.some(
        (file) => !isObject(file) || typeof file.name !== 'string' || typeof file.content !== 'string',
      )
    ) {
      problem('"attach" must be a list of { name, content, mimeType? }.');
    }
  }
  return value as ConversationTurn & { expect?: TurnExpectation };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(problems: readonly string[]): TreeAgentError {
  const message =
    problems.length === 1
      ? problems[0]!
      : `The conversation file has ${problems.length} problems:\n${problems.map((line) => `- ${line}`).join('\n')}`;
  return new TreeAgentError('INVALID_INPUT', message, { details: { problems } });
}
