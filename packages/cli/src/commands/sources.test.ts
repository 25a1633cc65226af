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
  // /broken answers 500: the source is ready, but a page failed, listed, and the exit code says so.
  expect(
    await main(
      ['sources', 'add', tree, 'faq', `${site.origin}/`, '--delay', '0', '--every', '60', ...allow],
      added,
    ),
  ).toBe(1);
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
  expect(await main(['sources', 'refresh', tree, id, ...allow], refreshed)).toBe(1);
  expect(refreshed.text()).toMatch(
    /1 page\(s\) changed \(1 chunk\(s\) written\), 9 unchanged, 0 removed, 1 failed/,
  );
  expect(refreshed.text()).toMatch(/failed {2}.*\/broken answered 500/);
  site.set('/broken', { status: 404 });
  const repaired = capture();
  expect(await main(['sources', 'refresh', tree, id, ...allow], repaired)).toBe(0);
  expect(repaired.text()).toMatch(/0 failed/);

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

test('treeagent sources add: a missing file is named as a file; a file source cites its name, not its path', async () => {
  const missing = capture();
  expect(await main(['sources', 'add', tree, 'faq', 'files/nonexist.md', '--data', data], missing)).toBe(2);
  expect(missing.text()).toMatch(
    /The file "files\/nonexist\.md" does not exist: check the path.*http:\/\/ or https:\/\//,
  );
  expect(missing.text()).not.toMatch(/is not a URL/);

  writeFileSync(join(scratch, 'care.md'), '# Chain care\n\nOil the chain of the city bike every two weeks.');
  const added = capture();
  expect(await main(['sources', 'add', tree, 'faq', join(scratch, 'care.md'), '--data', data], added)).toBe(
    0,
  );
  const found = capture();
  expect(
    await main(['sources', 'search', tree, 'faq', 'oil the chain', '--limit', '1', '--data', data], found),
  ).toBe(0);
  expect(found.text()).toMatch(/Chain care/);
  expect(found.text()).not.toContain(scratch);

  writeFileSync(join(scratch, 'big.txt'), 'x'.repeat(3_000));
  const big = capture();
  expect(
    await main(
      ['sources', 'add', tree, 'faq', join(scratch, 'big.txt'), '--max-bytes', '1000', '--data', data],
      big,
    ),
  ).toBe(1);
  expect(big.text()).toMatch(/big\.txt is 3000 bytes, over the limit of 1000 bytes/);
});
