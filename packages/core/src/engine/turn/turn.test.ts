import { describe, expect, it } from 'vitest';
import { TreeAgentError } from '../../errors/tree-agent-error.js';
import { executed, say, testAgent, testTurn } from '../../test-support/engine-fixtures.js';
import type { NodeDefinition } from '../../tree/node-definition.js';
import type { ExecuteResult } from './execute/execute-result.js';

const NODES: NodeDefinition[] = [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: say('hello') },
  { id: 4, type: 'emit', parent: 2, chunks: ['beta'], emit: say('bye') },
];

const message = (nodeId: number, content: string) => ({
  id: `1-${nodeId}`,
  nodeId,
  type: 'static' as const,
  content,
  options: [],
  attachments: [],
  dynamicAttachments: [],
  sources: [],
  waitInteraction: false,
  isWarning: false,
});

describe('Turn: the one owner of the turn state', () => {
  it('countExecution raises LOOP past maxSteps, naming the node and the fix', async () => {
    const { turn } = await testTurn(NODES, { limits: { maxSteps: 2 } });
    const node = turn.runtime.tree.node(3);
    turn.countExecution(node);
    turn.countExecution(node);
    const error = (() => {
      try {
        turn.countExecution(node);
      } catch (caught) {
        return caught;
      }
    })();
    expect(TreeAgentError.hasCode(error, 'LOOP')).toBe(true);
    expect((error as TreeAgentError).nodeId).toBe(3);
    expect((error as Error).message).toMatch(/more than 2 nodes.*raise maxSteps/);
  });

  it('beginFallback gives the fallback a fresh step budget and rethrows the error past maxFallbacks', async () => {
    const { turn } = await testTurn(NODES, { limits: { maxSteps: 1, maxFallbacks: 1 } });
    const node = turn.runtime.tree.node(3);
    const failure = new TreeAgentError('CALLBACK_ERROR', 'boom', { nodeId: 3 });
    turn.countExecution(node);
    turn.beginFallback(failure);
    expect(() => turn.countExecution(node)).not.toThrow();
    expect(() => turn.beginFallback(failure)).toThrow(failure);
  });

  it('endWithNoMatch ends the turn with status no-match and a no-match event', async () => {
    const { turn, events } = await testTurn(NODES);
    expect(turn.output().status).toBe('answered');
    turn.endWithNoMatch(2);
    expect(turn.output().status).toBe('no-match');
    expect(events.at(-1)).toEqual({ type: 'no-match', agentId: 2 });
  });

  it('climbFrom counts a failure, and a second climb from the same node is a LOOP', async () => {
    const { turn, events } = await testTurn(NODES);
    turn.climbFrom(3, 'leaf');
    expect(turn.context.failCounter).toBe(1);
    expect(events.at(-1)).toEqual({ type: 'fail-counter', value: 1, nodeId: 3, reason: 'leaf' });
    turn.climbFrom(4, 'below-threshold');
    expect(() => turn.climbFrom(3, 'failure-outcome')).toThrow(/Node 3 failed and reached its anchor twice/);
  });

  it('applyExecution delivers the message, moves the last node and keeps a turn-ending message pending', async () => {
    const { turn, events } = await testTurn(NODES);
    const sent = message(3, 'hello');
    const result: ExecuteResult = { special: { kind: 'empty' }, endsTurn: true, message: sent };
    turn.applyExecution(turn.runtime.tree.node(3), result);
    expect(events.at(-1)).toEqual({ type: 'message', message: sent });
    expect(turn.output()).toMatchObject({ nodeId: 3, messages: [sent] });
    expect(turn.pendingMessage).toBe(sent);
    expect(turn.agentPosition(2)).toBe(3);
    const commit = turn.commit();
    expect(commit.record).toMatchObject({ lastNodeId: 3, pendingMessage: sent, agentPositions: { 2: 3 } });
    expect(commit.history.map((entry) => [entry.role, entry.content])).toEqual([
      ['user', 'alpha'],
      ['assistant', 'hello'],
    ]);
  });

  it('applyExecution of a node that does not end the turn clears the pending message and records retrieved chunks', async () => {
    const { turn } = await testTurn(NODES);
    turn.applyExecution(turn.runtime.tree.node(3), {
      special: { kind: 'empty' },
      endsTurn: true,
      message: message(3, 'hello'),
    });
    const chunks = [{ id: 7, text: 'doc', extra: {}, similarity: 0.9 }];
    turn.applyExecution(turn.runtime.tree.node(4), {
      special: { kind: 'empty' },
      endsTurn: false,
      retrieved: chunks,
    });
    expect(turn.pendingMessage).toBeNull();
    expect(turn.lastExecutedId).toBe(4);
    expect(turn.context.retrieved.get(4)).toBe(chunks);
  });

  it('forgetLostNode starts over and resumeAt moves the last node; both reach the commit', async () => {
    const { turn, events } = await testTurn(NODES, { record: { turn: 3, lastNodeId: 99 } });
    expect(turn.lastExecutedId).toBe(99);
    turn.forgetLostNode(99);
    expect(events.at(-1)).toMatchObject({ type: 'session-reset', lostNodeId: 99 });
    expect(turn.commit().record.lastNodeId).toBeNull();
    turn.resumeAt(4);
    expect(turn.commit().record.lastNodeId).toBe(4);
  });

  it('applyExtendedMessage changes the direction and the user entry keeps both forms', async () => {
    const { turn, events } = await testTurn(NODES, { message: 'it' });
    turn.applyExtendedMessage('the order');
    expect(turn.context.input).toMatchObject({ original: 'it', extended: 'the order' });
    expect(turn.context.exploreStrategy.direction).toBe('the order');
    expect(events.at(-1)).toEqual({ type: 'message-extended', original: 'it', extended: 'the order' });
    expect(turn.commit().history[0]).toMatchObject({ content: 'it', extended: 'the order' });
  });
});

describe('explore constraints between interactions', () => {
  function constrainedAgent(keep: boolean, seen: unknown[]) {
    return testAgent([
      {
        id: 1,
        type: 'root',
        beforeRun: (_self, context) => void seen.push(context.exploreStrategy.constraints.toJSON()),
      },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: say('A'),
        before: (_self, context) => {
          context.exploreStrategy.constraints.keep = keep;
          context.exploreStrategy.constraints.blacklist.add(4, 'node');
          context.exploreStrategy.constraints.filter = { must: [{ key: 'lang', match: { value: 'en' } }] };
        },
      },
      { id: 4, type: 'emit', parent: 2, chunks: [{ text: 'beta', extra: { lang: 'en' } }], emit: say('B') },
    ]);
  }

  it('blacklist and filter are cleared at the end of the interaction by default', async () => {
    const seen: unknown[] = [];
    const agent = constrainedAgent(false, seen);
    await agent.send('s', 'alpha');
    expect((await agent.sessionStore.load('s'))!.constraints).toBeNull();
    const output = await agent.send('s', 'beta');
    expect(seen[1]).toEqual({ blacklist: { nodes: [], chunks: [] }, filter: null, keep: false });
    expect(executed(output)).toEqual([4]);
  });

  it('with keep, blacklist and filter persist in the session', async () => {
    const seen: unknown[] = [];
    const agent = constrainedAgent(true, seen);
    await agent.send('s', 'alpha');
    const kept = {
      blacklist: { nodes: [4], chunks: [] },
      filter: { must: [{ key: 'lang', match: { value: 'en' } }] },
      keep: true,
    };
    expect((await agent.sessionStore.load('s'))!.constraints).toEqual(kept);
    const output = await agent.send('s', 'beta');
    expect(seen[1]).toEqual(kept);
    // Node 4 stays blacklisted: nothing fits.
    expect(output.status).toBe('no-match');
  });
});
