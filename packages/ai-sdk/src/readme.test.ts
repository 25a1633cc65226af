import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { checkExample, markdownExample } from '../../../scripts/readme-example.js';
import { startFakeOpenAiServer } from './test-support/fake-openai-server.js';

const directory = join(import.meta.dirname, `.docs-${process.pid}`);
afterAll(() => rmSync(directory, { recursive: true, force: true }));

test('the README example runs as written against an OpenAI-compatible server on loopback (OLLAMA_URL)', async () => {
  // Not Ollama: the test fixture server that speaks the OpenAI API; the provider code path is the real one.
  const server = await startFakeOpenAiServer({ answers: ['A margherita is on its way.'] });
  try {
    const options = { directory, name: 'ollama.ts', env: { OLLAMA_URL: server.baseURL } };
    expect(await checkExample(markdownExample('packages/ai-sdk/README.md'), options)).toEqual([]);
    expect(server.chatRequests).toHaveLength(1);
    expect(server.chatRequests[0]!.model).toBe('llama3.2');
    expect(JSON.stringify(server.chatRequests[0]!.messages)).toContain('I want a pizza');
  } finally {
    await server.close();
  }
});
