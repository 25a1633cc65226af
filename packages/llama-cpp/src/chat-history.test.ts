import type { FileMetadata } from '@treeagent/core';
import { describe, expect, it } from 'vitest';
import { toChatHistory } from './chat-history.js';
import { generationOptions } from './llama-cpp-model.js';

const file = (name: string, mimeType: string): FileMetadata => ({ id: name, name, mimeType, origin: 'chat' });

describe('toChatHistory', () => {
  it('maps system, user and assistant messages, and opens the model answer', async () => {
    const history = await toChatHistory(
      {
        system: 'Be brief.',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'A' },
              { type: 'text', text: 'B' },
            ],
          },
        ],
        params: {},
      },
      { modelId: 'm', schemaInPrompt: true },
    );
    expect(history).toEqual([
      { type: 'system', text: 'Be brief.' },
      { type: 'user', text: 'Hi' },
      { type: 'model', response: ['Hello!'] },
      { type: 'user', text: 'A\n\nB' },
      { type: 'model', response: [] },
    ]);
  });

  it('adds the JSON schema to the system prompt of structured requests, unless disabled', async () => {
    const request = {
      messages: [{ role: 'user' as const, content: 'Classify' }],
      params: {},
      responseFormat: { name: 'category', schema: { type: 'object' } },
    };
    const [system] = await toChatHistory(request, { modelId: 'm', schemaInPrompt: true });
    expect(system).toEqual({
      type: 'system',
      text: 'Answer with only a JSON value (category) matching this JSON schema:\n{"type":"object"}',
    });
    const without = await toChatHistory(request, { modelId: 'm', schemaInPrompt: false });
    expect(without[0]).toEqual({ type: 'user', text: 'Classify' });
  });

  it('puts text files inline and refuses other files with a clear error', async () => {
    const readFile = async () => new TextEncoder().encode('a,b\n1,2');
    const history = await toChatHistory(
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'file', file: file('data.csv', 'text/csv') },
              { type: 'text', text: 'Sum it.' },
            ],
          },
        ],
        params: {},
        readFile,
      },
      { modelId: 'm', schemaInPrompt: true },
    );
    expect(history[0]).toEqual({ type: 'user', text: 'File data.csv:\na,b\n1,2\n\nSum it.' });
    await expect(
      toChatHistory(
        {
          messages: [{ role: 'user', content: [{ type: 'file', file: file('cat.png', 'image/png') }] }],
          params: {},
          readFile,
        },
        { modelId: 'llama-cpp:tiny', schemaInPrompt: true },
      ),
    ).rejects.toThrow(
      /"llama-cpp:tiny" is a text-only local model: it cannot read file "cat.png" \(image\/png\)/,
    );
  });
});

describe('generationOptions', () => {
  it('maps Tree Agent params to node-llama-cpp options', () => {
    expect(
      generationOptions({
        maxOutputTokens: 64,
        temperature: 0.7,
        topP: 0.9,
        topK: 40,
        minP: 0.05,
        seed: 7,
        stopSequences: ['\n\n', 'END'],
        presencePenalty: 0.5,
        frequencyPenalty: 0.2,
        repeatPenalty: 1.1,
      }),
    ).toEqual({
      maxTokens: 64,
      temperature: 0.7,
      topP: 0.9,
      topK: 40,
      minP: 0.05,
      seed: 7,
      customStopTriggers: ['\n\n', 'END'],
      repeatPenalty: { penalty: 1.1, presencePenalty: 0.5, frequencyPenalty: 0.2 },
    });
    expect(generationOptions({ stopSequences: 'STOP' })).toEqual({ customStopTriggers: ['STOP'] });
    expect(generationOptions({})).toEqual({});
  });

  it('refuses ill-typed values', () => {
    expect(() => generationOptions({ maxOutputTokens: 0 })).toThrow(
      /maxOutputTokens must be a positive integer/,
    );
    expect(() => generationOptions({ topP: 2 })).toThrow(/topP must be a number in \(0, 1\]/);
    expect(() => generationOptions({ seed: 'x' })).toThrow(/seed must be an integer/);
    expect(() => generationOptions({ stopSequences: [1] })).toThrow(/stopSequences/);
  });
});

describe('toChatHistory with tool steps', () => {
  const step = {
    system: 'Be brief.',
    messages: [
      { role: 'user' as const, content: 'Where are orders 1 and 2?' },
      {
        role: 'assistant' as const,
        content: [
          { type: 'text' as const, text: 'Checking.' },
          { type: 'tool-call' as const, toolCallId: 'a', toolName: 'orderStatus', input: { n: '1' } },
          { type: 'tool-call' as const, toolCallId: 'b', toolName: 'orderStatus', input: { n: '2' } },
        ],
      },
      {
        role: 'tool' as const,
        content: [
          {
            type: 'tool-result' as const,
            toolCallId: 'a',
            toolName: 'orderStatus',
            output: { status: 'shipped' },
          },
          {
            type: 'tool-result' as const,
            toolCallId: 'b',
            toolName: 'orderStatus',
            output: 'no such order',
            isError: true,
          },
        ],
      },
    ],
    params: {},
  };

  it('writes the calls with their results into one model response, which the model continues', async () => {
    const history = await toChatHistory(step, { modelId: 'm', schemaInPrompt: true });
    expect(history).toEqual([
      { type: 'system', text: 'Be brief.' },
      { type: 'user', text: 'Where are orders 1 and 2?' },
      {
        type: 'model',
        response: [
          'Checking.',
          {
            type: 'functionCall',
            name: 'orderStatus',
            params: { n: '1' },
            result: { status: 'shipped' },
            startsNewChunk: true,
          },
          {
            type: 'functionCall',
            name: 'orderStatus',
            params: { n: '2' },
            result: { error: 'no such order' },
            startsNewChunk: false,
          },
        ],
      },
    ]);
  });

  it('opens a new model answer when a user message follows the tool step', async () => {
    const history = await toChatHistory(
      { ...step, messages: [...step.messages, { role: 'user' as const, content: 'And now?' }] },
      { modelId: 'm', schemaInPrompt: true },
    );
    expect(history.slice(-2)).toEqual([
      { type: 'user', text: 'And now?' },
      { type: 'model', response: [] },
    ]);
  });
});
