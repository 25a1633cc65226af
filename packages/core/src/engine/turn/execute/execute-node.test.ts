import { describe, expect, it } from 'vitest';
import { MessageType } from '../../../protocol/constants.js';
import { ScriptedLanguageModel } from '../../../test/scripted-language-model.js';
import { executed, say, testAgent, testTurn } from '../../../test-support/engine-fixtures.js';
import { executeNode } from './execute-node.js';

describe('execute steps return what they produced and change nothing', () => {
  it('an emit returns its message without delivering it', async () => {
    const { turn, events } = await testTurn([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: { ...say('hello'), options: ['yes', 'no'] },
      },
    ]);
    const result = await executeNode(turn, turn.runtime.tree.node(3));
    expect(result.endsTurn).toBe(true);
    expect(result.message).toMatchObject({ id: '1-1', nodeId: 3, content: 'hello', options: ['yes', 'no'] });
    expect(result.special).toEqual({ kind: 'emit', message: result.message, selectedOption: null });
    expect(events.map((event) => event.type)).toEqual(['message-start']);
    expect(turn.output()).toMatchObject({ messages: [], nodeId: null });
  });

  it('a mute guardrail streams its generated warning and returns it, flagged, without ending the turn', async () => {
    const model = new ScriptedLanguageModel({ answers: 'Please stay polite.' });
    const { turn, events } = await testTurn(
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'guardrail',
          parent: 2,
          chunks: ['alpha'],
          isMute: true,
          warning: { type: 'generated', prompt: 'Warn the user.' },
        },
      ],
      { models: { default: model } },
    );
    const result = await executeNode(turn, turn.runtime.tree.node(3));
    expect(result.endsTurn).toBe(false);
    expect(result.message).toMatchObject({
      content: 'Please stay polite.',
      isWarning: true,
      type: MessageType.GENERATED,
    });
    expect(events.filter((event) => event.type === 'text-delta').length).toBeGreaterThan(0);
    expect(turn.output().messages).toEqual([]);
  });

  it('a query returns the chunks it retrieved and leaves context.retrieved to the loop', async () => {
    const { turn } = await testTurn([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'query',
        parent: 2,
        chunks: ['alpha', { text: 'beta', forRag: true }],
        query: { query: 'beta' },
      },
    ]);
    const result = await executeNode(turn, turn.runtime.tree.node(3));
    expect(result.retrieved?.map((chunk) => chunk.text)).toEqual(['beta']);
    expect(result.special).toMatchObject({ kind: 'query', query: 'beta' });
    expect(turn.context.retrieved.size).toBe(0);
  });
});

describe('nodes that answer the user', () => {
  it('an emit ends the turn; its after runs only when the next message arrives', async () => {
    let afterCalls = 0;
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: say('A'),
        after: () => {
          afterCalls++;
          return { nodeTarget: 4, step: 'before' };
        },
      },
      { id: 4, type: 'emit', parent: 2, emit: say('B') },
    ]);
    const first = await agent.send('s', 'alpha');
    expect(afterCalls).toBe(0);
    expect(first.messages.map((m) => m.content)).toEqual(['A']);
    const second = await agent.send('s', 'whatever');
    expect(afterCalls).toBe(1);
    expect(second.messages.map((m) => m.content)).toEqual(['B']);
  });

  it('a guardrail ends the turn with a warning', async () => {
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: say('A') },
      { id: 4, type: 'guardrail', parent: 2, chunks: ['beta'], warning: 'Please be polite.' },
    ]);
    const output = await agent.send('s', 'beta');
    expect(executed(output)).toEqual([4]);
    expect(output.nodeId).toBe(4);
    expect(output.messages).toHaveLength(1);
    expect(output.messages[0]).toMatchObject({
      nodeId: 4,
      type: 'static',
      content: 'Please be polite.',
      isWarning: true,
    });
    const history = await agent.history('s');
    expect(history[1]).toMatchObject({ role: 'assistant', content: 'Please be polite.', isWarning: true });
  });

  it('mute emits deliver their message and continue: one turn carries several messages', async () => {
    const afters: number[] = [];
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        isMute: true,
        emit: say('one'),
        after: (_self, _context, special) => {
          afters.push(3);
          expect(special.message?.content).toBe('one');
          return { nodeTarget: 4, step: 'before' };
        },
      },
      {
        id: 4,
        type: 'emit',
        parent: 2,
        isMute: true,
        emit: say('two'),
        after: () => {
          afters.push(4);
          return { nodeTarget: 5, step: 'before' };
        },
      },
      { id: 5, type: 'emit', parent: 2, emit: say('three') },
    ]);
    const output = await agent.send('s', 'alpha');
    expect(afters).toEqual([3, 4]);
    expect(executed(output)).toEqual([3, 4, 5]);
    expect(output.messages.map((m) => [m.id, m.nodeId, m.content])).toEqual([
      ['1-1', 3, 'one'],
      ['1-2', 4, 'two'],
      ['1-3', 5, 'three'],
    ]);
    expect(output.nodeId).toBe(5);
    const history = await agent.history('s');
    expect(history.map((entry) => entry.content)).toEqual(['alpha', 'one', 'two', 'three']);
  });

  it('a mute guardrail delivers its warning and the turn continues', async () => {
    const agent = testAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        isMute: true,
        emit: say('one'),
        after: () => ({ nodeTarget: 8, step: 'before' }),
      },
      {
        id: 9,
        type: 'empty',
        parent: 2,
        isAnchor: true,
        isBlocking: true,
        after: () => ({ nodeTarget: 4, step: 'before' }),
      },
      { id: 8, type: 'guardrail', parent: 9, isMute: true, warning: 'careful' },
      { id: 4, type: 'emit', parent: 2, emit: say('done') },
    ]);
    const output = await agent.send('s', 'alpha');
    expect(executed(output)).toEqual([3, 8, 9, 4]);
    expect(output.messages.map((m) => [m.content, m.isWarning])).toEqual([
      ['one', false],
      ['careful', true],
      ['done', false],
    ]);
  });
});
