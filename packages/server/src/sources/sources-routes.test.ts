import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TreeAgent } from '@treeagent/core';
import { InMemoryAuditLog, InMemorySourceStore } from '@treeagent/core/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpTree } from '../../../sources/src/test-support/crawl-scenario.js';
import { makeDocx } from '../../../sources/src/test-support/make-docx.js';
import { helpCenter, TestSite } from '../../../sources/src/test-support/test-site.js';
import { type OperatorAccount, operatorDirectory } from '../operators/operator-accounts.js';
import { testApp } from '../test-support/fixtures.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';
import type { SourcesOptions } from './sources-options.js';

const site = new TestSite();
const files = mkdtempSync(join(tmpdir(), 'treeagent-source-files-'));
let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
  await site.start();
  helpCenter(site, 2);
});
afterAll(async () => {
  await site.stop();
  rmSync(files, { recursive: true, force: true });
});

function setup(sources: Partial<SourcesOptions> = {}) {
  const auditLog = new InMemoryAuditLog();
  const store = new InMemorySourceStore();
  const { app, agent } = testApp({
    agent: new TreeAgent({ tree: helpTree }),
    operators: { directory: operatorDirectory(accounts), auditLog },
    sources: {
      store,
      allowPrivateHosts: ['127.0.0.1'],
      fileDirectory: files,
      maxFileBytes: 50_000,
      scheduleIntervalMs: 0,
      ...sources,
    },
  });
  const as = async (who: 'anna' | 'bruno') => ({ 'X-Operator-Token': await loginOperator(app, who) });
  const call = (
    path: string,
    headers: Record<string, string>,
    init: { method?: string; json?: unknown; body?: Uint8Array } = {},
  ) =>
    app.request(`/api/v1/sources${path}`, {
      method: init.method ?? (init.json || init.body ? 'POST' : 'GET'),
      headers: { ...headers, ...(init.json ? { 'Content-Type': 'application/json' } : {}) },
      ...(init.json ? { body: JSON.stringify(init.json) } : init.body ? { body: init.body } : {}),
    });
  return { app, agent, store, auditLog, as, call };
}

describe('/api/v1/sources', () => {
  it('is staff-only: no login is 401, an operator reads, only an admin changes', async () => {
    const { call, as } = setup();
    expect((await call('', {})).status).toBe(401);
    const bruno = await as('bruno');
    expect((await call('', bruno)).status).toBe(200);
    const refused = await call('', bruno, {
      json: { kind: 'crawl', location: `${site.origin}/`, nodeId: 3 },
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      error: { message: expect.stringMatching(/needs the admin role/) },
    });
  });

  it('refuses internal addresses unless the server allows them (SSRF)', async () => {
    const { call, as } = setup({ allowPrivateHosts: [] });
    const response = await call('', await as('anna'), {
      json: { kind: 'crawl', location: 'http://169.254.169.254/latest/', nodeId: 3 },
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(
      /internal address 169\.254\.169\.254.*TREEAGENT_SOURCES_ALLOW_HOSTS/,
    );
    // IPv4-mapped IPv6, which the URL parser rewrites to hex (::ffff:7f00:1): refused as 127.0.0.1 is.
    const mapped = await call('', await as('anna'), {
      json: { kind: 'crawl', location: 'http://[::ffff:127.0.0.1]:3922/', nodeId: 3 },
    });
    expect(mapped.status).toBe(400);
    expect(JSON.stringify(await mapped.json())).toMatch(/internal address ::ffff:7f00:1/);
  });

  it('an admin adds a website, refreshes it, sees its pages; search shows what the node retrieves, with URL and title; delete removes its chunks', async () => {
    const { call, as, auditLog } = setup();
    const anna = await as('anna');
    const added = await call('', anna, {
      json: { kind: 'crawl', location: `${site.origin}/`, nodeId: 3, options: { delayMs: 0 } },
    });
    expect(added.status).toBe(201);
    const { source } = (await added.json()) as { source: { id: string } };
    const refreshed = await call(`/${source.id}/refresh`, anna, { json: {} });
    expect(refreshed.status).toBe(200);
    expect(await refreshed.json()).toMatchObject({ source: { status: 'ready', pages: 9 } });
    const pages = (await (await call(`/${source.id}/pages`, anna)).json()) as { pages: { url: string }[] };
    expect(pages.pages.map((item) => item.url)).toContain(`${site.origin}/returns`);
    const search = await call('/search', await as('bruno'), {
      json: { message: 'refund to my card in 14 days', nodeId: 3, limit: 1 },
    });
    expect(await search.json()).toMatchObject({
      chunks: [{ title: 'Returns', url: `${site.origin}/returns#refunds` }],
    });
    const deleted = await call(`/${source.id}`, anna, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ removed: source.id, pages: 9 });
    const after = await call('/search', anna, { json: { message: 'refund', nodeId: 3 } });
    expect(await after.json()).toEqual({ chunks: [] });
    expect((await auditLog.list()).map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['sources.add', 'sources.refresh', 'sources.remove']),
    );
  });

  it('an uploaded Word file becomes a source; a file over the limit is 413 and nothing is kept', async () => {
    const { call, as, store } = setup();
    const anna = await as('anna');
    const docx = makeDocx([{ heading: 1, text: 'Warranty' }, { text: 'Two years on every frame.' }]);
    const uploaded = await call('/files?name=warranty.docx&nodeId=3', anna, { body: docx });
    expect(uploaded.status).toBe(201);
    expect(await uploaded.json()).toMatchObject({
      source: { kind: 'file', status: 'ready', pages: 1, chunks: 1 },
    });
    const big = await call('/files?name=big.docx&nodeId=3', anna, { body: new Uint8Array(60_000) });
    expect(big.status).toBe(413);
    expect(JSON.stringify(await big.json())).toMatch(/over the limit of 50000 \(sources\.maxFileBytes\)/);
    // No ?name= (a multipart form, say): the error says how this route takes a file.
    const unnamed = await call('/files?nodeId=3', anna, { body: docx });
    expect(unnamed.status).toBe(400);
    expect(JSON.stringify(await unnamed.json())).toContain('its name as ?name=');
    expect(await store.listSources()).toHaveLength(1);
  });

  it('an upload is private (0600 in a 0700 folder); a refused one is not kept; deleting the source deletes its file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-source-uploads-'));
    try {
      const { call, as } = setup({ fileDirectory: join(directory, 'sources') });
      const anna = await as('anna');
      const docx = makeDocx([{ text: 'Two years on every frame.' }]);
      // Not a query node: refused, and nothing is left on disk.
      const refused = await call('/files?name=warranty.docx&nodeId=999', anna, { body: docx });
      expect(refused.status).toBe(400);
      expect(readdirSync(join(directory, 'sources'))).toEqual([]);
      const uploaded = await call('/files?name=warranty.docx&nodeId=3', anna, { body: docx });
      expect(uploaded.status).toBe(201);
      const { source } = (await uploaded.json()) as { source: { id: string } };
      const [file] = readdirSync(join(directory, 'sources'));
      expect(statSync(join(directory, 'sources')).mode & 0o777).toBe(0o700);
      expect(statSync(join(directory, 'sources', file!)).mode & 0o777).toBe(0o600);
      expect((await call(`/${source.id}`, anna, { method: 'DELETE' })).status).toBe(200);
      expect(readdirSync(join(directory, 'sources'))).toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('an upload that cannot be read (corrupt PDF, binary .md) is 400 with the reason, and nothing is kept', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-source-uploads-'));
    try {
      const { call, as, store, auditLog } = setup({ fileDirectory: directory });
      const anna = await as('anna');
      const pdf = await call('/files?name=manual.pdf&nodeId=3', anna, {
        body: new TextEncoder().encode('%PDF-1.7 this is not really a PDF'),
      });
      expect(pdf.status).toBe(400);
      expect(JSON.stringify(await pdf.json())).toMatch(/manual\.pdf.*cannot be read, so it was not added/);
      const binary = await call('/files?name=fake.md&nodeId=3', anna, {
        body: new Uint8Array(4_000).map((_, index) => (index * 31) % 256),
      });
      expect(binary.status).toBe(400);
      expect(JSON.stringify(await binary.json())).toMatch(/fake\.md is not text/);
      expect(await store.listSources()).toEqual([]);
      expect(readdirSync(directory)).toEqual([]);
      expect((await auditLog.list()).map((entry) => entry.action)).not.toContain('sources.add');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('two uploads with the same name to one node keep their own chunks; deleting one keeps the other', async () => {
    const { call, as } = setup();
    const anna = await as('anna');
    const upload = async (text: string) => {
      const response = await call('/files?name=faq.md&nodeId=3', anna, {
        body: new TextEncoder().encode(text),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { source: { id: string; title?: string } }).source.id;
    };
    await upload('# FAQ\n\nThe workshop repairs punctures while you wait.');
    const second = await upload('# FAQ\n\nGift cards never expire.');
    const search = async (message: string) =>
      (
        (await (await call('/search', anna, { json: { message, nodeId: 3, limit: 5 } })).json()) as {
          chunks: { text: string; title: string }[];
        }
      ).chunks;
    const texts = async () =>
      (await search('punctures workshop gift cards expire')).map((chunk) => chunk.text).join('\n');
    expect(await texts()).toMatch(/punctures/);
    expect(await texts()).toMatch(/Gift cards/);
    expect((await search('punctures'))[0]!.title).toBe('FAQ');
    expect((await call(`/${second}`, anna, { method: 'DELETE' })).status).toBe(200);
    expect(await texts()).toMatch(/punctures/);
    expect(await texts()).not.toMatch(/Gift cards/);
  });
});
