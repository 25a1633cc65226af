import { parseConversations } from '@treeagent/testing';
import { describe, expect, it } from 'vitest';
import { conversationTest } from './conversation-test';
import { applyEvent, startTurn } from './turn-model';

const message = (id: string, nodeId: number, content: string, options: string[] = []) => ({
  id,
  nodeId,
  type: 'static' as const,
  content,
  options,
  attachments: [],
  dynamicAttachments: [],
  sources: [],
  waitInteraction: false,
  isWarning: false,
});

describe('a chat recorded as a conversation test', () => {
  it('writes a say per turn with the node, the static text and the options the agent answered', () => {
    let first = startTurn(1, { text: 'ciao "a tutti"', selectedOption: null, attachments: [] }, null, 0);
    first = applyEvent(
      first,
      {
        type: 'message',
        message: message('1-0', 10, 'Ciao!\\nCome posso aiutarti?', ['Spedizioni', 'Resi']),
      },
      1,
    );
    let second = startTurn(2, { text: 'Spedizioni', selectedOption: 'Spedizioni', attachments: [] }, null, 2);
    second = applyEvent(second, { type: 'no-match', nodeId: 2 } as never, 3);
    const tree = {
      nodes: new Map([
        [10, { name: 'saluto' }],
        [2, { name: 'assistente' }],
        [3, { name: 'assistente' }],
      ]),
    };
    const yaml = conversationTest([first, { ...second, output: null }], tree, 'my chat');
    expect(yaml).toContain('  - say: "ciao \\"a tutti\\""');
    const file = parseConversations(yaml, 'chat.yaml');
    const [conversation] = file.conversations;
    expect(conversation!.name).toBe('my chat');
    expect(conversation!.turns[0]).toEqual({
      say: 'ciao "a tutti"',
      expect: {
        node: 'saluto',
        message: { equals: 'Ciao!\\nCome posso aiutarti?' },
        options: ['Spedizioni', 'Resi'],
      },
    });
    expect(conversation!.turns[1]).toEqual({ option: 'Spedizioni', expect: { status: 'no-match' } });
  });
});
