import { readFileSync } from 'node:fs';
import { TreeAgentError } from '@treeagent/core';
import { parse } from 'yaml';
import type { Conversation, ConversationFile, ConversationTurn, TurnExpectation } from './conversation.js';

const TURN_KEYS = ['say', 'option', 'attach', 'clientMetadata', 'expect'];
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
    throw new TreeAgentError('INVALID_INPUT', `Cannot read the conversation file ${path}.`);
  }
  return parseConversations(text, path);
}

/** Parses the YAML text of a conversation file (a single conversation, or `conversations: [...]`). */
export function parseConversations(text: string, path = 'conversations.yaml'): ConversationFile {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw invalid(path, `is not valid YAML: ${(error as Error).message}`);
  }
  if (!isObject(document)) throw invalid(path, 'must be a mapping with "turns" or "conversations".');
  const list = Array.isArray(document.conversations) ? document.conversations : [document];
  const conversations = list.map((item, index) =>
    conversation(item, `${path}, conversation ${index + 1}`, index),
  );
  const fixtures = document.fixtures;
  if (fixtures !== undefined && !isObject(fixtures))
    throw invalid(path, '"fixtures" must be a mapping with "model" and/or "embedder".');
  return {
    path,
    ...(fixtures ? { fixtures: fixtures as ConversationFile['fixtures'] & object } : {}),
    conversations,
  };
}

function conversation(value: unknown, where: string, index: number): Conversation {
  if (!isObject(value)) throw invalid(where, 'must be a mapping with "name" and "turns".');
  if (!Array.isArray(value.turns) || value.turns.length === 0)
    throw invalid(where, 'needs a non-empty "turns" list.');
  const name = typeof value.name === 'string' ? value.name : `conversation ${index + 1}`;
  const turns = value.turns.map((turn, position) =>
    conversationTurn(turn, `${where} ("${name}"), turn ${position + 1}`),
  );
  return { name, ...(typeof value.session === 'string' ? { session: value.session } : {}), turns };
}

function conversationTurn(value: unknown, where: string): ConversationTurn {
  if (typeof value === 'string') return { say: value };
  if (!isObject(value)) throw invalid(where, 'must be a text or a mapping with "say" or "option".');
  for (const key of Object.keys(value))
    if (!TURN_KEYS.includes(key))
      throw invalid(where, `has an unknown field "${key}" (fields: ${TURN_KEYS.join(', ')}).`);
  if (typeof value.say !== 'string' && typeof value.option !== 'string')
    throw invalid(where, 'needs "say" (a message) or "option" (an option to pick).');
  if (value.expect !== undefined) {
    if (!isObject(value.expect)) throw invalid(where, '"expect" must be a mapping.');
    for (const key of Object.keys(value.expect)) {
      if (!EXPECT_KEYS.includes(key))
        throw invalid(where, `expects an unknown field "${key}" (fields: ${EXPECT_KEYS.join(', ')}).`);
    }
  }
  if (value.attach !== undefined) {
    if (
      !Array.isArray(value.attach) ||
      value.attach.some(
        (file) => !isObject(file) || typeof file.name !== 'string' || typeof file.content !== 'string',
      )
    ) {
      throw invalid(where, '"attach" must be a list of { name, content, mimeType? }.');
    }
  }
  return value as ConversationTurn & { expect?: TurnExpectation };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(where: string, problem: string): TreeAgentError {
  return new TreeAgentError('INVALID_INPUT', `${where} ${problem}`);
}
