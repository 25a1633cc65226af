// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { TranscriptResponse } from '../../../src/api-types';
import { renderInApp } from '../test-support/render';
import { Transcript } from './review-transcript';

describe('the Review transcript', () => {
  it('tells the user, the agent, an operator (by name) and a handoff event apart', async () => {
    const transcript: TranscriptResponse = {
      sessionId: 's1',
      facts: [],
      history: [
        { role: 'user', content: 'a human please', turn: 1, at: '2026-12-07T10:00:00.000Z' },
        {
          role: 'assistant',
          content: 'I am passing you to a colleague.',
          turn: 1,
          at: '2026-12-07T10:00:01.000Z',
        },
        {
          role: 'system',
          content: 'raw row text',
          turn: 1,
          at: '2026-12-07T10:00:02.000Z',
          handoff: { type: 'claim', operator: { id: 'bruno', name: 'Bruno Bianchi' } },
        },
        {
          role: 'assistant',
          content: 'Hi, I am Bruno.',
          turn: 1,
          at: '2026-12-07T10:00:03.000Z',
          operator: { id: 'bruno', name: 'Bruno Bianchi' },
        },
      ],
    };
    const root = await renderInApp(
      <Transcript transcript={transcript} named={[]} nodeLabel={(id) => `#${id}`} onLabel={() => {}} />,
    );
    const rows = [...root.querySelectorAll('.transcript-message')].map((row) => [
      row.querySelector('.transcript-role')!.textContent,
      row.textContent!.replace(row.querySelector('.transcript-role')!.textContent!, '').trim(),
    ]);
    expect(rows).toEqual([
      ['User', 'a human please'],
      ['Agent', 'I am passing you to a colleague.'],
      ['Event', 'Bruno Bianchi joined the conversation.'],
      ['Bruno Bianchi', 'Hi, I am Bruno.'],
    ]);
    expect(root.querySelectorAll('.transcript-operator')).toHaveLength(1);
  });
});
