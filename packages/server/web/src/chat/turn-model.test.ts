import type { OutputMessage } from '@treeagent/core/client';
import { describe, expect, it } from 'vitest';
import type { ClientOutput } from '../../../src/api-types';
import { restoreHistory } from './restore-history';
import { applyEvent, isTyping, losesSession, startTurn, type Turn, waitsForUser } from './turn-model';

const user = { text: 'ciao', selectedOption: null, attachments: [] };

function message(id: string, content: string, extra: Partial<OutputMessage> = {}): OutputMessage {
  return {
    id,
    nodeId: 3,
    type: 'generated',
    content,
    options: [],
    attachments: [],
    dynamicAttachments: [],
    sources: [],
    waitInteraction: false,
    isWarning: false,
    ...extra,
  };
}

function output(messages: OutputMessage[], status: ClientOutput['status'] = 'answered'): ClientOutput {
  return { sessionId: 's', turn: 4, status, failCounter: 0, messages, serverMetadata: {}, nodeId: 3 };
}

describe('turn model', () => {
  it('streams a message, then completes it with the server message and the output', () => {
    let turn: Turn = startTurn(1, user, { message: 'ciao' }, 100);
    expect(isTyping(turn)).toBe(true);
    turn = applyEvent(turn, { type: 'turn-start', sessionId: 's', turn: 4, message: 'ciao', at: '' }, 101);
    turn = applyEvent(
      turn,
      { type: 'message-start', messageId: '4-1', nodeId: 3, messageType: 'generated' },
      102,
    );
    turn = applyEvent(turn, { type: 'text-delta', messageId: '4-1', nodeId: 3, delta: 'Ci' }, 103);
    turn = applyEvent(turn, { type: 'text-delta', messageId: '4-1', nodeId: 3, delta: 'ao' }, 104);
    expect(turn.number).toBe(4);
    expect(isTyping(turn)).toBe(false);
    expect(turn.messages).toEqual([{ id: '4-1', nodeId: 3, streaming: true, text: 'Ciao', message: null }]);

    const done = message('4-1', 'Ciao!', { waitInteraction: true });
    turn = applyEvent(turn, { type: 'message', message: done }, 105);
    expect(turn.messages[0]).toMatchObject({ streaming: false, message: done });
    turn = applyEvent(turn, { type: 'turn-end', output: output([done]), durationMs: Number.NaN }, 150);
    expect(turn.durationMs).toBe(50); // measured by the page when the server sent none
    expect(waitsForUser(turn)).toBe(true);
    expect(turn.events.map((event) => event.type)).toEqual([
      'turn-start',
      'message-start',
      'text-delta',
      'text-delta',
      'message',
      'turn-end',
    ]);
  });

  it('takes the messages of a JSON answer from the output, and marks a no-match turn', () => {
    const turn = applyEvent(
      startTurn(1, user, null, 0),
      { type: 'turn-end', output: output([message('1-1', 'Hi')], 'no-match'), durationMs: 12 },
      5,
    );
    expect(turn.messages.map((entry) => entry.message?.content)).toEqual(['Hi']);
    expect(turn.noMatch).toBe(true);
    expect(turn.durationMs).toBe(12);
  });

  it('knows which tools run: from a tool-call to its tool-result (as sent outside debug mode, without arguments)', () => {
    let turn = startTurn(1, user, null, 0);
    const call = (toolCallId: string) =>
      ({ type: 'tool-call', nodeId: 3, toolCallId, toolName: 'orderStatus', step: 1 }) as const;
    turn = applyEvent(turn, call('a'), 1);
    turn = applyEvent(turn, call('b'), 2);
    expect(turn.runningTools.map((tool) => tool.toolCallId)).toEqual(['a', 'b']);
    turn = applyEvent(
      turn,
      { type: 'tool-result', nodeId: 3, toolCallId: 'a', toolName: 'orderStatus', step: 1, durationMs: 5 },
      3,
    );
    expect(turn.runningTools.map((tool) => tool.toolCallId)).toEqual(['b']);
    turn = applyEvent(
      turn,
      { type: 'error', status: 500, error: { code: 'CALLBACK_ERROR', message: 'x' } },
      4,
    );
    expect(turn.runningTools).toEqual([]);
  });

  it('stops streaming on an error event, keeping its status', () => {
    let turn = startTurn(1, user, null, 0);
    turn = applyEvent(turn, { type: 'text-delta', messageId: '1-1', nodeId: 3, delta: 'Ci' }, 1);
    turn = applyEvent(
      turn,
      { type: 'error', status: 500, error: { code: 'CALLBACK_ERROR', message: 'boom' } },
      2,
    );
    expect(turn.error).toEqual({ status: 500, code: 'CALLBACK_ERROR', message: 'boom' });
    expect(turn.messages[0]?.streaming).toBe(false);
    expect(losesSession(turn.error!)).toBe(false);
    expect(losesSession({ code: 'UNAUTHORIZED', message: '', status: 401 })).toBe(true);
  });

  it('rebuilds turns from the history, without debug data', () => {
    const turns = restoreHistory([
      { role: 'user', content: 'ciao', turn: 1, at: '' },
      { role: 'assistant', content: 'Ciao!', turn: 1, at: '', nodeId: 10, options: ['A', 'B'] },
      { role: 'user', content: 'B', turn: 2, at: '', selectedOption: 'B' },
      { role: 'assistant', content: null, turn: 2, at: '', nodeId: 11 },
    ]);
    expect(
      turns.map((turn) => [turn.number, turn.user.text, turn.user.selectedOption, turn.restored]),
    ).toEqual([
      [1, 'ciao', null, true],
      [2, 'B', 'B', true],
    ]);
    expect(turns[0]!.messages[0]).toMatchObject({
      nodeId: 10,
      message: { content: 'Ciao!', options: ['A', 'B'] },
    });
    expect(turns[1]!.messages[0]!.message?.type).toBe('none');
    expect(turns.every((turn) => !isTyping(turn) && turn.events.length === 0)).toBe(true);
  });
});
