/**
 * The packages as users get them: packs every package, installs the tarballs in a fresh directory
 * outside the repository, and uses them there.
 *
 * How each package resolves alone: the project made by `npm create treeagent` (run from the packed
 * create-treeagent) gets every @treeagent package as `file:` tarballs, with npm `overrides` that send
 * every @treeagent dependency of every package (the CLI's `^0.1.0` ranges, the adapters' peer
 * `@treeagent/core`) to those tarballs, as a registry would. Third-party packages come from the npm
 * cache/registry (--prefer-offline). Install scripts are skipped and better-sqlite3's native build is
 * copied from the repository's node_modules (same version, same Node), so nothing compiles.
 *
 * Then: (d) the created project's `npm test` passes; (a) a plain `node` ES-module script builds a tree
 * and gets the expected answer; (b) `tsc --noEmit` on the tree of docs/getting-started.md and on a file
 * importing every installed entry point passes with skipLibCheck false under `tsc --init` defaults, strict
 * nodenext and bundler, each with and without the DOM lib; (c) `treeagent lint|test|eval` work on a
 * `.ts` and a `.js` tree; (e) every installed source map carries its sources, and no tarball ships a
 * declaration map or a map of the web app (whose sources are not shipped); (f) without the optional
 * peer @treeagent/postgres, `treeagent report --database-url` says how to install it, and with its
 * tarball installed reads PostgreSQL (TREEAGENT_TEST_DATABASE_URL). It prints each tarball's size
 * and fails if one ships a `*.test.*` file or the web app outgrows WEB_APP_MAX_BYTES.
 *
 * Usage: npx tsx scripts/pack-install-test.ts [--keep] [--no-build]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
/**
 * The most the chat page's built files (`@treeagent/server`'s dist/web) may weigh unpacked: 1 MiB for
 * the app, and a quarter more for the editor's code editor (CodeMirror, about 400 kB), a chunk loaded
 * only when the Callbacks panel opens.
 */
const WEB_APP_MAX_BYTES = 1.25 * 1024 * 1024;
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'treeagent-pack-'));
const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);
const started = Date.now();

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const label = `${command} ${args.join(' ')}`;
  process.stdout.write(`\n$ ${label}   (in ${cwd})\n`);
  try {
    const output = execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return output;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; status?: number };
    process.stdout.write(`${failed.stdout ?? ''}\n${failed.stderr ?? ''}\n`);
    throw new Error(`pack-install: "${label}" failed with exit code ${failed.status}`);
  }
}

function check(condition: unknown, message: string): void {
  if (!condition) throw new Error(`pack-install: ${message}`);
  process.stdout.write(`ok - ${message}\n`);
}

try {
  // 1. Build and pack every published package.
  if (!process.argv.includes('--no-build')) run('npm', ['run', 'build'], ROOT);
  const packed = JSON.parse(
    run('npm', ['pack', '--workspaces', '--json', '--pack-destination', tarballs], ROOT),
  ) as {
    name: string;
    version: string;
    filename: string;
    size: number;
    unpackedSize: number;
    files: { path: string; size: number }[];
  }[];
  const published = packed.filter((entry) => entry.name !== '@treeagent/examples');
  process.stdout.write('\npackage                              tarball    unpacked  files\n');
  for (const entry of published) {
    process.stdout.write(
      `${entry.name.padEnd(36)} ${(entry.size / 1024).toFixed(1).padStart(7)} kB ${(entry.unpackedSize / 1024).toFixed(1).padStart(8)} kB ${String(entry.files.length).padStart(5)}\n`,
    );
    const tests = entry.files.filter((file) => /\.test\./.test(file.path)).map((file) => file.path);
    if (tests.length) throw new Error(`pack-install: ${entry.name} ships test files: ${tests.join(', ')}`);
    const outside = entry.files.filter(
      (file) =>
        !/^(dist\/|schema\/[\w-]+\.schema\.json$|locales\/[\w-]+\/[\w-]+\.json$|README\.md$|CHANGELOG\.md$|package\.json$|LICENSE)/.test(
          file.path,
        ) && !(entry.name === '@treeagent/embedder-use' && /^weights\/(NOTICE|[\w-]+\.bin)$/.test(file.path)),
    );
    if (outside.length)
      throw new Error(
        `pack-install: ${entry.name} ships files outside dist: ${outside.map((f) => f.path).join(', ')}`,
      );
  }
  check(
    true,
    "no tarball ships a *.test.* file or anything outside dist/, published JSON Schemas, message catalogs (locales/), README, CHANGELOG (and the USE-lite student's weights in @treeagent/embedder-use)",
  );
  // Source maps: a JavaScript map carries its sources (checked after install); declaration maps and
  // the web app's map would point at sources the package does not ship, so there are none.
  for (const entry of published) {
    const maps = entry.files
      .map((file) => file.path)
      .filter(
        (path) => path.endsWith('.d.ts.map') || (path.startsWith('dist/web/') && path.endsWith('.map')),
      );
    if (maps.length)
      throw new Error(`pack-install: ${entry.name} ships maps of unshipped sources: ${maps.join(', ')}`);
  }
  check(true, 'no tarball ships a declaration map or a map of the web app');
  const server = published.find((entry) => entry.name === '@treeagent/server');
  const webBytes = (server?.files ?? [])
    .filter((file) => file.path.startsWith('dist/web/'))
    .reduce((sum, file) => sum + file.size, 0);
  check(
    webBytes > 0 && webBytes < WEB_APP_MAX_BYTES,
    `the server's web app is ${(webBytes / 1024).toFixed(0)} kB unpacked (limit ${WEB_APP_MAX_BYTES / 1024} kB)`,
  );
  const tarball = (name: string) => {
    const entry = published.find((candidate) => candidate.name === name);
    if (!entry) throw new Error(`pack-install: ${name} was not packed`);
    return join(tarballs, entry.filename);
  };
  const treeagentPackages = published.filter((entry) => entry.name.startsWith('@treeagent/'));

  // 2. (d) npm create treeagent, from the packed create-treeagent.
  run(
    'npm',
    [
      'exec',
      '--yes',
      `--package=${tarball('create-treeagent')}`,
      '--',
      'create-treeagent',
      'my-bot',
      '--lang',
      'en',
      '--template',
      'support',
    ],
    work,
  );
  const project = join(work, 'my-bot');
  const manifestPath = join(project, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  check(
    manifest.scripts.dev === 'treeagent dev src/tree.json',
    'the created project has the dev, chat, test, eval, fit, lint scripts',
  );
  // Resolve @treeagent/* from the tarballs (what a registry would serve); add what checks (a)-(c) use.
  const local = (name: string) => `file:${tarball(name)}`;
  manifest.dependencies = {
    ...manifest.dependencies,
    '@treeagent/core': local('@treeagent/core'),
    '@treeagent/components': local('@treeagent/components'),
    '@treeagent/testing': local('@treeagent/testing'),
    '@treeagent/server': local('@treeagent/server'),
    '@treeagent/sqlite': local('@treeagent/sqlite'),
    '@treeagent/fit': local('@treeagent/fit'),
    '@treeagent/ai-sdk': local('@treeagent/ai-sdk'),
    '@treeagent/sources': local('@treeagent/sources'),
    // In the English template's dependencies: the fit at load's base for English trees.
    '@treeagent/embedder-use': local('@treeagent/embedder-use'),
  };
  manifest.devDependencies = { ...manifest.devDependencies, '@treeagent/cli': local('@treeagent/cli') };
  manifest.overrides = Object.fromEntries(treeagentPackages.map((entry) => [entry.name, local(entry.name)]));
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], project);
  cpSync(
    join(ROOT, 'node_modules/better-sqlite3/build'),
    join(project, 'node_modules/better-sqlite3/build'),
    { recursive: true },
  );
  run('npm', ['test'], project);
  check(true, '(d) the project made by npm create treeagent passes npm test with the packed packages');

  // (a) A plain node ES-module script.
  writeFileSync(
    join(project, 'answer.mjs'),
    `import { defineTree, TreeAgent } from '@treeagent/core';
const tree = defineTree({
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    { id: 3, type: 'emit', parent: 2, chunks: ['how much is shipping', 'delivery costs'],
      emit: { message: { type: 'static', content: 'Shipping is 5 euros.' } } },
    { id: 4, type: 'emit', parent: 2, chunks: ['return a product', 'refund'],
      emit: { message: { type: 'static', content: 'You have 30 days.' } } },
  ],
});
const agent = new TreeAgent({ tree });
const output = await agent.send('s1', 'how much does shipping cost?');
console.log(output.messages[0]?.content);
`,
  );
  const answer = run('node', ['answer.mjs'], project).trim();
  // The published JSON Schema of tree documents resolves through core's exports.
  writeFileSync(
    join(project, 'schema.mjs'),
    `import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const path = createRequire(import.meta.url).resolve('@treeagent/core/tree-document.schema.json');
console.log(JSON.parse(readFileSync(path, 'utf8')).$schema ? 'schema' : 'no $schema');
`,
  );
  const schema = run('node', ['schema.mjs'], project).trim();
  check(
    schema === 'schema',
    `(a) @treeagent/core/tree-document.schema.json resolves and parses ("${schema}")`,
  );
  check(answer === 'Shipping is 5 euros.', `(a) plain node: the tree answers "${answer}"`);

  // (a) The fit at load over USE-lite + hashed for an English tree, with @treeagent/fit's fitter
  // passed explicitly: it finds @treeagent/embedder-use (in the English template's dependencies)
  // where a user installs them. Without the option the same tree stays unfitted.
  writeFileSync(
    join(project, 'english-fit.mjs'),
    `import { defineTree, TreeAgent } from '@treeagent/core';
import { spaceFitter } from '@treeagent/fit';
const openings = ['can you tell me', 'i want to know', 'please show me', 'what is', 'i need to check', 'could you find', 'do you know'];
const topics = {
  shipping: ['the shipping cost', 'how long delivery takes', 'when my parcel arrives', 'the postage to france'],
  returns: ['how to return an item', 'the refund policy', 'how i send back shoes', 'if i can get my money back'],
  hours: ['your opening hours', 'when the shop opens', 'if you are open on sunday', 'what time you close'],
  payment: ['which cards you accept', 'if i can pay with paypal', 'how to pay in instalments', 'the payment options'],
};
const tree = defineTree({
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    ...Object.entries(topics).map(([name, objects], index) => ({
      id: 10 + index, type: 'emit', parent: 2, name,
      chunks: openings.flatMap((opening) => objects.map((object) => opening + ' ' + object)),
      emit: { message: { type: 'static', content: name } },
    })),
  ],
});
const agent = new TreeAgent({ tree, spaceFitter: spaceFitter() });
const space = await agent.whenFitted();
const plain = await new TreeAgent({ tree }).whenFitted();
// The cascade reads the USE-lite student's weights from the installed package (weights/).
const cascade = await new TreeAgent({ tree, spaceFitter: spaceFitter({ base: 'cascade', cacheDirectory: false }) }).whenFitted();
console.log(space.state + ' ' + space.baseId + ' | ' + plain.state + ' | ' + cascade.baseId + ' then ' + cascade.escalation?.baseId);
`,
  );
  const englishFit = run('node', ['english-fit.mjs'], project).trim();
  check(
    /^fitted concat\(use-lite-en@[^*]+\*2,hashed-v1:.* \| unfitted \| concat\(use-lite-student-en@1\*2,hashed-v1:.* then concat\(use-lite-en@/.test(
      englishFit,
    ),
    `(a) plain node: an English tree of 112 chunks fits over USE-lite + hashed with spaceFitter(), stays unfitted without it, and the cascade fits over the installed student then USE-lite ("${englishFit}")`,
  );

  // (a) A form of @treeagent/components, in plain node: two slots in one message, the third asked.
  writeFileSync(
    join(project, 'form.mjs'),
    `import { form, formFallback } from '@treeagent/components';
import { defineTree, TreeAgent } from '@treeagent/core';
const booking = form({
  name: 'table', language: 'en', confirm: false, now: () => new Date('2026-12-01T10:00:00Z'),
  triggers: ['book a table', 'table reservation'],
  slots: [
    { name: 'date', type: 'date', question: 'Which day?' },
    { name: 'time', type: 'time', question: 'What time?' },
    { name: 'people', type: 'integer', question: 'How many people?', keywords: ['people'] },
  ],
  onComplete: (values) => \`Booked: \${values.people} people on \${values.date} at \${values.time}.\`,
});
const tree = defineTree({
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, links: { sorry: 9 },
      fallback: formFallback((_self, _context, _special, links) => ({ nodeTarget: links.sorry })) },
    { id: 3, type: 'component', parent: 2, use: booking, idBase: 100 },
    { id: 9, type: 'emit', parent: 2, emit: { message: { type: 'static', content: 'Sorry.' } } },
  ],
});
const agent = new TreeAgent({ tree });
await agent.send('s1', 'book a table for tomorrow at 8pm');
const output = await agent.send('s1', 'four people');
console.log(output.messages[0]?.content);
`,
  );
  const booked = run('node', ['form.mjs'], project).trim();
  check(
    booked === 'Booked: 4 people on 2026-12-02 at 20:00.',
    `(a) plain node: a form of @treeagent/components answers "${booked}"`,
  );

  // (b) The published types under users' settings (skipLibCheck false).
  mkdirSync(join(project, 'typecheck'));
  writeFileSync(
    join(project, 'typecheck/tree.ts'),
    `import { defineTree, type Tree, TreeAgent, TreeAgentError } from '@treeagent/core';
import { cosineSimilarity, KeyedMutex } from '@treeagent/core/adapter';
import { ExactEmbedder, ScriptedLanguageModel } from '@treeagent/core/test';
import { turnFactOf } from '@treeagent/core/analytics';
import { parseTreeDocument } from '@treeagent/core/document';
import { evaluateRouting, lintTree } from '@treeagent/core/evaluation';
import { type Filter, validateFilter } from '@treeagent/core/filter';
import { ingestDocuments } from '@treeagent/core/ingest';
import { Redactor } from '@treeagent/core/privacy';
import { main } from '@treeagent/cli';
import { openSqlite } from '@treeagent/sqlite';
import { FittedEmbedder } from '@treeagent/fit';
import { runConversationFile } from '@treeagent/testing';
import { form, formFallback } from '@treeagent/components';
import { readHtml } from '@treeagent/sources';

const ids = { root: 1, agent: 2, menu: 3, order: 4, hours: 5, sorry: 9 } as const;

// Every subpath of core resolves under users' settings (the server's /api in web.ts).
export const subpaths = [turnFactOf, parseTreeDocument, evaluateRouting, lintTree, validateFilter, ingestDocuments, Redactor];
export const filter: Filter = { must: [{ key: 'city', match: { value: 'Roma' } }] };

// As in docs/getting-started.md.
export const tree: Tree = defineTree({
  name: 'pizzeria',
  nodes: [
    { id: ids.root, type: 'root' },
    { id: ids.agent, type: 'agent', parent: ids.root, isPrimary: true, links: { sorry: ids.sorry }, fallback: () => ({ nodeTarget: ids.sorry }) },
    {
      id: ids.menu, type: 'emit', parent: ids.agent, name: 'menu',
      chunks: ['cosa avete nel menu?', 'che pizze fate'],
      emit: { message: { type: 'static', content: 'Margherita o Diavola?' }, options: ['Margherita', 'Diavola'] },
      links: { done: ids.order },
      after: (_self, context, special) => {
        if (!special.selectedOption) return { outcome: 'failure' };
        context.sessionState.set('pizza', special.selectedOption);
        return { nodeTarget: ids.order, step: 'before' };
      },
    },
    {
      id: ids.order, type: 'emit', parent: ids.menu, name: 'ordine',
      emit: (_self, context) => ({ message: { type: 'static', content: \`Una \${context.sessionState.get<string>('pizza')} in arrivo!\` } }),
    },
    { id: ids.sorry, type: 'emit', parent: ids.agent, name: 'scusa', emit: { message: { type: 'static', content: 'Scusa.' } } },
  ],
});

export const agent = new TreeAgent({ tree, embedder: new ExactEmbedder({ vectors: {} }) });
export const used = [TreeAgentError, cosineSimilarity, KeyedMutex, ScriptedLanguageModel, main, openSqlite, FittedEmbedder, runConversationFile, form, formFallback, readHtml];
`,
  );
  // The server (Hono) and the AI SDK adapter: their third-party types (hono, ai) use the DOM lib's
  // fetch types (HeadersInit, RequestCredentials, …), so they are checked with the DOM lib only.
  writeFileSync(
    join(project, 'typecheck/web.ts'),
    `import { createModels } from '@treeagent/ai-sdk';
import { createApp } from '@treeagent/server';
import { type ClientEvent, SESSION_TOKEN_HEADER } from '@treeagent/server/api';
export const used = [createModels, createApp, SESSION_TOKEN_HEADER];
export type Wire = ClientEvent;
`,
  );
  // The tree of docs/getting-started.md, as a user copies it.
  const guide = readFileSync(join(ROOT, 'docs/getting-started.md'), 'utf8');
  const guideTree = /```ts\n([\s\S]*?)```/.exec(guide)?.[1];
  if (!guideTree) throw new Error('pack-install: docs/getting-started.md has no TypeScript block');
  writeFileSync(join(project, 'typecheck/getting-started.ts'), guideTree);
  run('npx', ['tsc', '--init'], join(project, 'typecheck'));
  const tsInit = run('npx', ['tsc', '-p', 'typecheck', '--showConfig'], project);
  const initDefaults = JSON.parse(tsInit).compilerOptions as Record<string, unknown>;
  const configs: Record<string, Record<string, unknown>> = {
    'tsc --init (TypeScript 5.9 defaults)': { ...initDefaults, types: ['node'] },
    'strict, nodenext': {
      strict: true,
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      types: ['node'],
    },
    'strict, bundler': {
      strict: true,
      module: 'esnext',
      moduleResolution: 'bundler',
      target: 'es2022',
      types: ['node'],
    },
  };
  for (const [label, options] of Object.entries(configs)) {
    for (const dom of [false, true]) {
      const compilerOptions = {
        ...options,
        lib: dom ? ['es2023', 'dom', 'dom.iterable'] : ['es2023'],
        skipLibCheck: false,
        noEmit: true,
        declaration: false,
        declarationMap: false,
        sourceMap: false,
      };
      writeFileSync(
        join(project, 'typecheck/tsconfig.json'),
        JSON.stringify(
          { compilerOptions, files: ['tree.ts', 'getting-started.ts', ...(dom ? ['web.ts'] : [])] },
          null,
          2,
        ),
      );
      run('npx', ['tsc', '-p', 'typecheck/tsconfig.json'], project);
      check(
        true,
        `(b) tsc --noEmit, skipLibCheck false: ${label}${dom ? ', with the DOM lib' : ', without the DOM lib'}`,
      );
    }
  }

  // (c) The CLI on a TypeScript and a JavaScript tree.
  writeFileSync(
    join(project, 'tree.mjs'),
    `import { defineTree } from '@treeagent/core';
export default defineTree({
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, links: { sorry: 9 },
      fallback: (self, context, special, links) => ({ nodeTarget: links.sorry }) },
    { id: 3, type: 'emit', parent: 2, name: 'shipping', chunks: ['how much is shipping', 'delivery costs'],
      emit: { message: { type: 'static', content: 'Shipping is 5 euros.' } } },
    { id: 4, type: 'emit', parent: 2, name: 'returns', chunks: ['return a product', 'refund'],
      emit: { message: { type: 'static', content: 'You have 30 days.' } } },
    { id: 9, type: 'emit', parent: 2, name: 'sorry',
      emit: { message: { type: 'static', content: 'Sorry, I did not understand.' } } },
  ],
});
`,
  );
  writeFileSync(
    join(project, 'tree.yaml'),
    'conversations:\n  - name: shipping\n    turns:\n      - say: how much is shipping?\n        expect: { node: shipping, message: 5 euros }\n',
  );
  writeFileSync(join(project, 'tree.tsv'), 'shipping costs please\tshipping\ni want a refund\treturns\n');
  const cli = join(project, 'node_modules/.bin/treeagent');
  for (const [tree, conversations, utterances] of [
    ['src/tree.json', 'tests/conversations.yaml', 'data/utterances.tsv'],
    ['tree.mjs', 'tree.yaml', 'tree.tsv'],
  ] as const) {
    run(cli, ['lint', tree, '--strict'], project);
    run(cli, ['test', tree, conversations], project);
    run(cli, ['eval', tree, utterances, '--min-accuracy', '1'], project);
    check(true, `(c) treeagent lint, test and eval on ${tree}`);
  }
  // (e) The installed source maps carry their sources: a stack trace maps to code that is there.
  let maps = 0;
  for (const entry of treeagentPackages) {
    const dist = join(project, 'node_modules', entry.name, 'dist');
    if (!existsSync(dist)) continue;
    for (const path of readdirSync(dist, { recursive: true, encoding: 'utf8' })) {
      if (!path.endsWith('.map')) continue;
      const map = JSON.parse(readFileSync(join(dist, path), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      const carried = map.sources.every((_, i) => typeof map.sourcesContent?.[i] === 'string');
      if (!carried)
        throw new Error(`pack-install: ${entry.name}/dist/${path} names sources it does not carry`);
      maps++;
    }
  }
  check(maps > 0, `(e) each of the ${maps} installed source maps carries its sources`);

  // (f) @treeagent/postgres is an optional peer dependency of the CLI: without it, --database-url
  // says what to install; with its tarball installed, the report reads PostgreSQL.
  const databaseUrl = process.env.TREEAGENT_TEST_DATABASE_URL;
  const report = spawnSync(
    cli,
    ['report', '--database-url', databaseUrl ?? 'postgres://127.0.0.1:1/none', '--json'],
    { cwd: project, encoding: 'utf8' },
  );
  check(
    report.status === 2 &&
      report.stderr.includes('--database-url') &&
      report.stderr.includes('npm install @treeagent/postgres'),
    `(f) without @treeagent/postgres, treeagent report --database-url exits ${report.status}: ${report.stderr.trim()}`,
  );
  const serve = spawnSync(cli, ['serve', 'tree.mjs', '--database-url', 'postgres://127.0.0.1:1/none'], {
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
  });
  check(
    serve.status === 2 && serve.stderr.includes('npm install @treeagent/postgres'),
    `(f) without @treeagent/postgres, treeagent serve --database-url exits ${serve.status} and says what to install`,
  );
  // As its dependency, spelled as the override (npm refuses a direct dependency that differs from it).
  const withPostgres = JSON.parse(readFileSync(manifestPath, 'utf8'));
  withPostgres.dependencies['@treeagent/postgres'] = local('@treeagent/postgres');
  writeFileSync(manifestPath, `${JSON.stringify(withPostgres, null, 2)}\n`);
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], project);
  if (databaseUrl) {
    const schema = `pack_install_${process.pid}`;
    try {
      const json = JSON.parse(
        run(cli, ['report', '--database-url', databaseUrl, '--schema', schema, '--json'], project),
      ) as Record<string, unknown>;
      check(
        typeof json === 'object' && json !== null,
        '(f) with @treeagent/postgres installed, the report reads PostgreSQL',
      );
    } finally {
      writeFileSync(
        join(project, 'drop-schema.mjs'),
        `import pg from 'pg';
const client = new pg.Client({ connectionString: process.env.TREEAGENT_TEST_DATABASE_URL });
await client.connect();
await client.query('DROP SCHEMA IF EXISTS ${schema} CASCADE');
await client.end();
`,
      );
      run('node', ['drop-schema.mjs'], project);
    }
  } else {
    process.stdout.write('skipped - (f) the report on PostgreSQL: TREEAGENT_TEST_DATABASE_URL is not set\n');
  }

  const seconds = Math.round((Date.now() - started) / 1000);
  process.stdout.write(
    `\npack-install: all checks passed in ${seconds} s (${work}${keep ? ', kept' : ''})\n`,
  );
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true });
}
