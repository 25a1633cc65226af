import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTree, HashedEmbedder } from '../packages/core/src/index.js';
import { addSource, refreshSource } from '../packages/sources/src/index.js';
import { openSqlite } from '../packages/sqlite/src/index.js';

/**
 * Knowledge sources (issue #45): `npx tsx bench/sources-crawl.ts [--pages=10000] [--concurrency=8]`.
 * A help center of `pages` article pages (100 per section page, sections linked from the home page)
 * served on 127.0.0.1 by this process — pages generated from their path, so the server holds
 * nothing — crawled into a SQLite file with the hashed embedder: the first refresh (everything new),
 * then a second one (every page answers 304 to its ETag). Reports pages and chunks per second and
 * the peak resident memory and heap of the process (the site included), sampled every 100 ms.
 */
const arg = (name: string, fallback: number) =>
  Number(process.argv.find((item) => item.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const PAGES = arg('pages', 10_000);
const CONCURRENCY = arg('concurrency', 8);
const SECTIONS = Math.ceil(PAGES / 100);

const paragraph = (page: number, n: number) =>
  `Article ${page}, part ${n}: to service model ${page % 97} remove the wheel, clean the hub with a dry cloth, check the bearings for play and grease them every ${(page % 11) + 2} months; torque the axle nut to ${20 + (page % 15)} Nm.`;
const article = (page: number) =>
  `<!doctype html><html><head><title>Article ${page}</title></head><body><nav><a href="/">Home</a> <a href="/section-${Math.floor(page / 100)}">Section</a></nav><main><article><h1>Article ${page}</h1>${[
    1, 2, 3,
  ]
    .map(
      (section) =>
        `<h2 id="s${section}">Step ${section}</h2><p>${paragraph(page, section)} ${paragraph(page, section + 3)}</p>`,
    )
    .join('')}</article></main><footer>Bike Shop · cookies</footer></body></html>`;
const etagOf = (path: string) => `"${path.length}-${path}"`;

const server = createServer((request, response) => {
  const path = request.url ?? '/';
  if (request.headers['if-none-match'] === etagOf(path)) {
    response.writeHead(304, { etag: etagOf(path) }).end();
    return;
  }
  let body: string | null = null;
  if (path === '/robots.txt') body = 'User-agent: *\nDisallow: /private/\n';
  else if (path === '/')
    body = `<html><head><title>Help</title></head><body><h1>Help center</h1><p>All our manuals, by section.</p>${Array.from({ length: SECTIONS }, (_, index) => `<a href="/section-${index}">Section ${index}</a>`).join(' ')}</body></html>`;
  else if (/^\/section-\d+$/.test(path)) {
    const section = Number(path.slice(9));
    const links = Array.from({ length: 100 }, (_, index) => section * 100 + index)
      .filter((page) => page < PAGES)
      .map((page) => `<li><a href="/article-${page}">Article ${page}</a></li>`)
      .join('');
    body = `<html><head><title>Section ${section}</title></head><body><h1>Section ${section}</h1><p>The manuals of section ${section}.</p><ul>${links}</ul></body></html>`;
  } else if (/^\/article-\d+$/.test(path)) body = article(Number(path.slice(9)));
  if (body === null) {
    response.writeHead(404).end();
    return;
  }
  response
    .writeHead(200, {
      'content-type': path === '/robots.txt' ? 'text/plain' : 'text/html; charset=utf-8',
      etag: etagOf(path),
    })
    .end(body);
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const directory = mkdtempSync(join(tmpdir(), 'treeagent-bench-sources-'));
const stores = openSqlite(directory);
const tree = defineTree({
  name: 'help',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    { id: 3, type: 'query', parent: 2, chunks: ['manuals'] },
  ],
});
const context = {
  tree,
  sourceStore: stores.sourceStore,
  vectorStore: stores.vectorStore,
  embedder: new HashedEmbedder(),
  embeddingCache: stores.embeddingCache,
  addressPolicy: { allowPrivateHosts: ['127.0.0.1'] },
};

let peakRss = 0;
let peakHeap = 0;
const sampler = setInterval(() => {
  const memory = process.memoryUsage();
  peakRss = Math.max(peakRss, memory.rss);
  peakHeap = Math.max(peakHeap, memory.heapUsed);
}, 100);
const mib = (value: number) => `${(value / 1024 / 1024).toFixed(0)} MiB`;
const baseline = process.memoryUsage();

const source = await addSource(
  {
    kind: 'crawl',
    location: `${origin}/`,
    nodeId: 3,
    options: { delayMs: 0, concurrency: CONCURRENCY, maxPages: PAGES + SECTIONS + 1, maxDepth: 3 },
  },
  context,
);
const runs: string[] = [];
for (const label of ['first refresh (all new)', 'second refresh (all 304)']) {
  peakRss = 0;
  peakHeap = 0;
  const started = performance.now();
  const report = await refreshSource(source.id, context);
  const seconds = (performance.now() - started) / 1000;
  runs.push(
    `| ${label} | ${report.source.pages} | ${report.written} | ${seconds.toFixed(1)} s | ${(report.source.pages / seconds).toFixed(0)} | ${(report.written / seconds).toFixed(0)} | ${mib(peakRss)} | ${mib(peakHeap)} | ${report.changed} / ${report.unchanged} / ${report.failed.length} |`,
  );
  console.error(
    `${label}: ${seconds.toFixed(1)} s, status ${report.source.status}, ${report.source.chunks} chunks`,
  );
}
clearInterval(sampler);
console.log(
  `Pages ${PAGES} (+${SECTIONS + 1} index pages), per-host concurrency ${CONCURRENCY}, no delay; ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}; baseline RSS ${mib(baseline.rss)}, heap ${mib(baseline.heapUsed)}.\n`,
);
console.log(
  '| run | pages | chunks written | time | pages/s | chunks/s | peak RSS | peak heap | changed / unchanged / failed |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const run of runs) console.log(run);
await stores.close();
server.close();
rmSync(directory, { recursive: true, force: true });
