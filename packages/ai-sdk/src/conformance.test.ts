import { createOpenAI } from '@ai-sdk/openai';
import { HashedEmbedder } from '@treeagent/core';
import { conformanceAnswer, describeEmbedder, describeLanguageModel } from '@treeagent/core/conformance';
import { aiSdkEmbedder } from './ai-sdk-embedder.js';
import { createModel } from './providers.js';
import { startFakeOpenAiServer } from './test-support/fake-openai-server.js';

/**
 * The AI SDK adapters through their real provider code paths, against a loopback HTTP server that
 * speaks the OpenAI API (a test fixture: it answers what the conformance suites ask for).
 */
for (const provider of ['openai-compatible', 'openai'] as const) {
  describeLanguageModel(`AI SDK model (${provider} provider, chat completions over HTTP)`, async () => {
    const server = await startFakeOpenAiServer({
      answers: (body) => conformanceAnswer(Boolean(body.response_format)),
    });
    return {
      model: createModel(
        { provider, baseURL: server.baseURL, model: 'tiny', apiKey: 'sk-test' },
        { maxRetries: 0 },
      ),
      dispose: () => server.close(),
    };
  });
}

describeEmbedder('AI SDK embedder (openai provider, /v1/embeddings over HTTP)', async () => {
  // The server's vectors stand in for a real model's: hashed ones, so texts are told apart.
  const hashed = new HashedEmbedder({ dimensions: 256 });
  const server = await startFakeOpenAiServer({
    answers: [],
    embed: (text) => Array.from(hashed.embedOne(text)),
  });
  return {
    embedder: aiSdkEmbedder(
      createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).embedding('text-embedding-test'),
      {
        maxRetries: 0,
      },
    ),
    dispose: () => server.close(),
  };
});
