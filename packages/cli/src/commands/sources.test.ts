import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { helpCenter, page, TestSite } from '../../../sources/src/test-support/test-site.js';
import { main } from '../main.js';
import type { Output } from '../output.js';

// Inside the package, so that the tree file resolves @treeagent/core.
const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-sources-', import.meta.url)));
const tree = join(scratch, 'help-tree.ts');
const data = join(scratch, 'data');
const site = new TestSite();
beforeAll(async () => {
  writeFileSync(
    tree,
    `import { defineTree } from '@treeagent/core';
export default defineTree({ name: 'help', nodes: [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 3, type: 'query', parent: 2, name: 'faq', chunks: ['help'], query: { query: 'help', chunkQty: 2, threshold: 0 } },
] });
`,
  );
  await site.start();
  helpCenter(site, 3);
});
afterAll(async () => {
  await site.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function capture(): Output & { out: string[]; err: string[]; text(): string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    log: (line) => out.push(line),
    write: (text) => out.push(text),
    error: (line) => err.push(line),
    text: () => [...out, ...err].join('\n'),
  };
}

test('treeagent sources add, list, search, refresh and remove a crawled website', async () => {
  const refused = capture();
  expect(await main(['sources', 'add', tree, 'faq', `${site.origin}/`, '--data', data], refused)).toBe(2);
  expect(refused.text()).toMatch(/internal address 127\.0\.0\.1.*allowPrivateHosts/);

  const allow = ['--data', data, '--allow-host', '127.0.0.1'];
  const added = capture();
  expect(
    await main(
      ['sources', 'add', tree, 'faq', `${site.origin}/`, '--delay', '0', '--every', '60', ...allow],
      added,
    ),
  ).toBe(0);
  const id = /Added crawl source (\S+)/.exec(added.text())![1]!;
  expect(added.text()).toMatch(/ready {2}10 page\(s\)/);
  expect(added.text()).toMatch(/failed {2}.*\/broken answered 500/);

  const listed = capture();
  expect(await main(['sources', 'list', '--data', data], listed)).toBe(0);
  expect(listed.text()).toContain(`${id}  crawl  ready  10 page(s)`);
  expect(listed.text()).toMatch(/every 60 min/);

  const found = capture();
  expect(
    await main(
      ['sources', 'search', tree, 'faq', 'refund to the card in 14 days', '--limit', '1', ...allow],
      found,
    ),
  ).toBe(0);
  expect(found.text()).toContain(`Returns  ${site.origin}/returns#refunds`);

  site.set('/changing', page('Opening hours', { Hours: 'Closed on Mondays from now on.' }));
  const refreshed = capture();
  expect(await main(['sources', 'refresh', tree, id, ...allow], refreshed)).toBe(0);
  expect(refreshed.text()).toMatch(/1 page\(s\) changed \(1 chunk\(s\) written\), 9 unchanged, 0 removed/);

  const removed = capture();
  expect(await main(['sources', 'remove', tree, id, ...allow], removed)).toBe(0);
  expect(removed.text()).toContain('the chunks of its 10 page(s)');
  const empty = capture();
  expect(await main(['sources', 'search', tree, '3', 'refund', ...allow], empty)).toBe(0);
  expect(empty.text()).toMatch(/Node 3 retrieves nothing/);
  const unknown = capture();
  expect(await main(['sources', 'refresh', tree, 'no-such-id', ...allow], unknown)).toBe(2);
  expect(unknown.text()).toMatch(
    /There is no knowledge source "no-such-id": list them with `treeagent sources list`/,
  );
});
