import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { checkExample, markdownExample, runExample } from '../../../scripts/readme-example.js';
import { writeTinyGguf } from './test-support/index.js';

const cwd = mkdtempSync(join(tmpdir(), 'treeagent-llama-readme-'));
const directory = join(import.meta.dirname, `.docs-${process.pid}`);
afterAll(() => {
  rmSync(cwd, { recursive: true, force: true });
  rmSync(directory, { recursive: true, force: true });
});

test('the README example streams an answer from the real llama.cpp, on a tiny test model at the path it names', async () => {
  // Not Qwen (no model ships, and the network is off): the tiny random-weight llama of
  // test-support, written where the README's modelPath points; llama.cpp runs it for real.
  mkdirSync(join(cwd, 'models'));
  await writeTinyGguf(join(cwd, 'models/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf'), { seed: 7 });
  const example = markdownExample('packages/llama-cpp/README.md');
  expect(await checkExample(example, { directory, name: 'local-model.ts', cwd })).toEqual([]);
}, 120_000);

test('without the model file, the README example fails with an error that names the path (not an empty answer)', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'treeagent-llama-readme-empty-'));
  try {
    const example = markdownExample('packages/llama-cpp/README.md');
    await expect(
      runExample(example.code, { directory, name: 'local-model-missing.ts', cwd: empty }),
    ).rejects.toThrow(/Qwen2\.5-1\.5B-Instruct-Q4_K_M\.gguf/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}, 120_000);
