import { mkdtempSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';
import { chatSession, eventually, say } from '../test-support/environment-scenario.js';
import { writeShopTree } from '../test-support/versioned-tree.js';
import { startServe } from './serve.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-experiment-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('an experiment splits new sessions between two versions, each session sticking to its variant; promote publishes the winner and ends it', async () => {
  const data = `${scratch}/data`;
  const tree = writeShopTree(scratch);
  const run = async (...args: string[]) => {
    const output = capture();
    const code = await main([...args, '--data', data], output);
    return { code, text: output.lines.join('\n') };
  };
  const first = await run('publish', 'production', tree, '-m', 'first release');
  const v1 = /Published version (\w{12})/.exec(first.text)![1]!;
  writeShopTree(scratch, { shippingAnswer: 'Shipping takes 2 days, 1 in town.' });
  const recorded = await run('versions', tree);
  const v2 = /Recorded version (\w{12})/.exec(recorded.text)![1]!;

  expect((await run('experiment', 'production', tree, '--split', `${v1}=60`, `${v2}=30`)).text).toMatch(
    /add up to 100; they add up to 90/,
  );
  const started = await run(
    'experiment',
    'production',
    tree,
    '--split',
    `${v1}=50`,
    `${v2}=50`,
    '--name',
    'town',
  );
  expect(started.code).toBe(0);
  expect(started.text).toContain(`Experiment "town" on production: ${v1} 50%, ${v2} 50% of new sessions.`);

  const previousPoll = process.env.TREEAGENT_VERSION_POLL_MS;
  process.env.TREEAGENT_VERSION_POLL_MS = '200';
  const out = capture();
  const server = await startServe(tree, { port: '0', data, env: 'production' }, out);
  try {
    const question = 'how long does shipping take';
    const sessions = await Promise.all(Array.from({ length: 20 }, () => chatSession(server.url)));
    const answers = await Promise.all(sessions.map((session) => say(server.url, session, question)));
    const onV2 = answers.filter((answer) => answer === 'Shipping takes 2 days, 1 in town.').length;
    const onV1 = answers.filter((answer) => answer === 'Shipping takes 2 days.').length;
    expect(onV1 + onV2).toBe(20);
    expect(onV1).toBeGreaterThanOrEqual(2);
    expect(onV2).toBeGreaterThanOrEqual(2);
    // Sticky: each session answers again from its variant.
    for (const [index, session] of sessions.entries())
      expect(await say(server.url, session, question)).toBe(answers[index]);

    const promoted = await run('experiment', 'production', tree, '--promote', v2, '-m', 'won');
    expect(promoted.text).toContain(
      `Promoted version ${v2} of shop to production and ended the experiment "town".`,
    );
    await eventually(
      async () => out.lines.some((line) => line.includes(`production now serves version ${v2}`)),
      20_000,
      'the server following the promotion',
    );
    for (let index = 0; index < 3; index++)
      expect(await say(server.url, await chatSession(server.url), question)).toBe(
        'Shipping takes 2 days, 1 in town.',
      );
    const stayed = sessions[answers.indexOf('Shipping takes 2 days.')]!;
    expect(await say(server.url, stayed, question)).toBe('Shipping takes 2 days.');
  } finally {
    await server.close();
    if (previousPoll === undefined) delete process.env.TREEAGENT_VERSION_POLL_MS;
    else process.env.TREEAGENT_VERSION_POLL_MS = previousPoll;
  }
}, 120_000);

test('after a promote (published without figures), the recall gate still compares with the last publish measured: a degraded tree is refused', async () => {
  const directory = `${scratch}/promote-gate`;
  const data = `${directory}/data`;
  const tree = writeShopTree(directory);
  const run = async (...args: string[]) => {
    const output = capture();
    const code = await main([...args, '--data', data], output);
    return { code, text: output.out.join('\n'), err: output.err.join('\n') };
  };
  const first = await run('publish', 'production', tree, '-m', 'first', '--max-recall-drop', '0.05');
  const v1 = /Published version (\w{12})/.exec(first.text)![1]!;
  writeShopTree(directory, { shippingAnswer: 'Shipping takes 2 days, 1 in town.' });
  const v2 = /Recorded version (\w{12})/.exec((await run('versions', tree)).text)![1]!;
  expect((await run('experiment', 'production', tree, '--split', `${v1}=50`, `${v2}=50`)).code).toBe(0);
  expect((await run('experiment', 'production', tree, '--promote', v2, '-m', 'won')).code).toBe(0);

  writeShopTree(directory, {
    shippingAnswer: 'Shipping takes 2 days, 1 in town.',
    returnsChunks: ['opening hours', 'store address'],
  });
  const degraded = await run('publish', 'production', tree, '-m', 'new returns examples');
  expect(degraded.code).toBe(1);
  expect(degraded.err).toMatch(/- node "returns": recall 0\.000, was 1\.000 at the last publish/);
}, 120_000);
