import { randomUUID } from 'node:crypto';
import {
  type ErrorSummary,
  type FileMetadata,
  summarizeError,
  TreeAgent,
  TreeAgentError,
  type TreeAgentOptions,
} from '@treeagent/core';
import type { LanguageModel } from '@treeagent/core/adapter';
import { ExactEmbedder, ScriptedLanguageModel } from '@treeagent/core/test';
import { checkTurn, type Mismatch } from './check-turn.js';
import type { Conversation, ConversationFile, ConversationTurn, Fixtures } from './conversation.js';

/** The result of one turn of a conversation. */
export interface TurnResult {
  index: number;
  turn: ConversationTurn;
  mismatches: Mismatch[];
  /**
   * The errors of the turn: those the agent's fallback handled (from the trace's `fallback`
   * events) and the one that failed the turn, each with its node, callback and first frame in the
   * tree's code. Printed with a failing turn, so a broken callback is visible.
   */
  errors: ErrorSummary[];
}

export interface ConversationResult {
  file: string;
  name: string;
  passed: boolean;
  turns: TurnResult[];
}

/** The agent options, or a factory of them: a turn with `restart: true` calls it again. */
export type AgentOptionsSource = TreeAgentOptions | (() => TreeAgentOptions | Promise<TreeAgentOptions>);

/**
 * Plays each conversation of a file on a fresh agent and checks every turn's expectations. The file's
 * fixtures, when present, replace the model and the embedder with deterministic mocks.
 */
export async function runConversationFile(
  file: ConversationFile,
  options: AgentOptionsSource,
): Promise<ConversationResult[]> {
  const results: ConversationResult[] = [];
  for (const conversation of file.conversations) {
    let current = typeof options === 'function' ? await options() : options;
    const start = () => new TreeAgent({ ...current, ...fixtureOptions(file.fixtures) });
    const restart = async () => {
      if (typeof options === 'function') {
        // The factory opens a new store: close the old one first, as a stopped process would.
        await (current.sessionStore as { close?: () => unknown } | undefined)?.close?.();
        current = await options();
      }
      return start();
    };
    results.push(await runConversation(start(), conversation, file.path, restart));
  }
  return results;
}

/**
 * Plays one conversation on an agent. A failing turn does not stop the conversation. `restart` makes
 * the agent that a turn with `restart: true` goes on with (without it such a turn fails).
 */
export async function runConversation(
  initial: TreeAgent,
  conversation: Conversation,
  file = '',
  restart?: () => TreeAgent | Promise<TreeAgent>,
): Promise<ConversationResult> {
  let agent = initial;
  const sessionId = conversation.session ?? `test-${randomUUID()}`;
  const turns: TurnResult[] = [];
  // The options of the agent's last message: an `option:` turn must pick one of them.
  let offered: readonly string[] = [];
  for (const [index, turn] of conversation.turns.entries()) {
    if (turn.restart) {
      if (!restart) {
        const expected = 'a way to restart the agent: run the file with runConversationFile (or the CLI)';
        turns.push({
          index,
          turn,
          mismatches: [{ field: 'restart', expected, actual: 'no restart function' }],
          errors: [],
        });
        continue;
      }
      agent = await restart();
    }
    if (turn.option !== undefined && !offered.includes(turn.option)) {
      const expected = offered.length
        ? `one of the options offered: ${offered.map((option) => JSON.stringify(option)).join(', ')}`
        : 'an option, but the previous answer offered none (write "say:" to type a message)';
      // Not sent: the agent still waits with the same options.
      turns.push({
        index,
        turn,
        mismatches: [{ field: 'option', expected, actual: turn.option }],
        errors: [],
      });
      continue;
    }
    const attachments = await attach(agent, sessionId, turn);
    let output = null;
    let error = null;
    const errors: ErrorSummary[] = [];
    try {
      output = await agent.send(sessionId, turn.say ?? '', {
        ...(turn.option ? { selectedOption: turn.option } : {}),
        ...(attachments.length ? { attachments } : {}),
        ...(turn.clientMetadata ? { clientMetadata: turn.clientMetadata } : {}),
      });
    } catch (caught) {
      error = TreeAgentError.isInstance(caught)
        ? { code: caught.code, message: caught.message }
        : { code: 'INTERNAL', message: String(caught) };
      errors.push(summarizeError(caught));
    }
    for (const event of output?.trace ?? []) if (event.type === 'fallback') errors.unshift(event.error);
    offered = output?.messages.at(-1)?.options ?? [];
    const state = (await agent.sessionStore.load(sessionId))?.state ?? {};
    turns.push({
      index,
      turn,
      mismatches: checkTurn(agent.tree, { output, error, state }, turn.expect),
      errors,
    });
  }
  return {
    file,
    name: conversation.name,
    passed: turns.every((turn) => turn.mismatches.length === 0),
    turns,
  };
}

/**
 * The language model of a file's fixtures — a `ScriptedLanguageModel` (a mock, for tests) — or
 * `undefined` without one. `treeagent test` gives it to a tree factory as `models.default`, so a
 * tree that has a generative variant builds it.
 */
export function fixtureModel(fixtures: Fixtures | undefined): LanguageModel | undefined {
  return fixtures?.model
    ? new ScriptedLanguageModel({ id: 'fixtures', answers: fixtures.model.answers })
    : undefined;
}

function fixtureOptions(fixtures: Fixtures | undefined): Partial<TreeAgentOptions> {
  const model = fixtureModel(fixtures);
  return {
    ...(model ? { models: model } : {}),
    ...(fixtures?.embedder ? { embedder: new ExactEmbedder(fixtures.embedder) } : {}),
  };
}

async function attach(agent: TreeAgent, sessionId: string, turn: ConversationTurn): Promise<FileMetadata[]> {
  const files: FileMetadata[] = [];
  for (const file of turn.attach ?? []) {
    files.push(
      await agent.fileStore.put({
        name: file.name,
        mimeType: file.mimeType ?? 'text/plain',
        data: new TextEncoder().encode(file.content),
        origin: 'chat',
        sessionId,
      }),
    );
  }
  return files;
}
