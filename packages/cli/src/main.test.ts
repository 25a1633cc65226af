import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { defineTree } from '@treeagent/core';
import { definitionFromJSON } from '@treeagent/core/document';
import { calibrationReads } from '@treeagent/core/evaluation';
import { afterAll, describe, expect, test } from 'vitest';
import { chatCommand } from './commands/chat.js';
import { LINT_CALIBRATION_MAX_READS_PER_CHUNK, LINT_FIT_MAX_CHUNKS } from './commands/lint.js';
import { main } from './main.js';
import { capture } from './test-support/capture.js';

const bikeShop = fileURLToPath(new URL('../../../examples/src/bike-shop/tree.ts', import.meta.url));
const utterances = fileURLToPath(new URL('../../../examples/src/bike-shop/utterances.tsv', import.meta.url));
// Inside the package, so that tree files written by the tests resolve @treeagent/core.
const scratch = mkdtempSync(fileURLToPath(new URL('../.scratch-', import.meta.url)));
const data = join(scratch, 'data');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('treeagent', () => {
  test('inspect shows the effective tree, components flattened', async () => {
    const output = capture();
    expect(await main(['inspect', bikeShop], output)).toBe(0);
    const text = output.out.join('\n');
    expect(text).toMatch(/^bike-shop: 22 nodes, \d+ chunks/);
    expect(text).toContain('502 empty "riparazione" (blocking), 10 chunks [component 50]');
    expect(text).toContain('202 query "spedizioni: search", 16 chunks (3 forRag) [component 20]');
    expect(text).toContain('40 empty "ordini" (blocking)');
    // The automatic choice is visible: the agent's threshold is calibrated at load, and says from what.
    expect(text).toMatch(
      /2 agent "assistente" \(primary\), threshold 0\.25 \(calibrated at load: .*sampled chunks/,
    );
  });

  test('lint shows the thresholds calibrated at load', async () => {
    const output = capture();
    expect(await main(['lint', bikeShop], output)).toBe(0);
    expect(output.out.join('\n')).toMatch(
      /info {4}node 2 \("assistente"\): similarityThreshold 0\.25 \(calibrated at load/,
    );
  });

  test('eval reports accuracy, confusions and thresholds; --min-accuracy sets the exit code', async () => {
    const output = capture();
    expect(await main(['eval', bikeShop, utterances, '--data', data], output)).toBe(0);
    const text = output.out.join('\n');
    expect(text).toMatch(
      /with the tree's thresholds \(.*\): in-scope right \d+\.\d% \(answered at all \d+\.\d%\)/,
    );
    expect(text).toMatch(/"in-scope right": the turn answers from the labelled node/);
    expect(text).toMatch(/operating point: one threshold for every routing node, \d\.\d{3}/);
    expect(text).toMatch(/suggested similarityThreshold per routing node .*:\n\s+node 2 \(assistente\)/);
    expect(text).not.toMatch(/warning: only \d+ out-of-scope/);
    expect(
      await main(['eval', bikeShop, utterances, '--min-accuracy', '1.01', '--data', data], capture()),
    ).toBe(1);
  });

  test('the demo routes ≥ 95% of its in-scope utterances right and declines ≥ 90% of its out-of-scope ones, with thresholds calibrated at load', async () => {
    const output = capture();
    const code = await main(
      ['eval', bikeShop, utterances, '--min-accuracy', '0.95', '--min-oos-recall', '0.9', '--data', data],
      output,
    );
    expect(output.err).toEqual([]);
    expect(code).toBe(0);
    expect(output.out.join('\n')).toMatch(/with the tree's thresholds \(calibrated at load\)/);
  });

  test('eval suggests no operating point from too few in-scope utterances', async () => {
    const few = join(scratch, 'few.tsv');
    writeFileSync(
      few,
      'quanto costa la spedizione?\tspedizioni: search\nvorrei fare un reso\tresi: search\n',
    );
    const output = capture();
    await main(['eval', bikeShop, few, '--data', data], output);
    const text = output.out.join('\n');
    expect(text).toMatch(/operating point: none suggested \(only 2 in-scope utterance\(s\)/);
    expect(text).not.toMatch(/set defaultSimilarityThreshold/);
  });

  test('eval: a label that names no node is an error listing the unknown labels (exit 2)', async () => {
    const typos = join(scratch, 'typos.tsv');
    writeFileSync(typos, 'quanto costa la spedizione?\tspedizione\nvoglio il rimborso\tresi\nciao\tsaluto\n');
    const output = capture();
    expect(await main(['eval', bikeShop, typos, '--data', data], output)).toBe(2);
    expect(output.err.join('\n')).toMatch(
      /2 label\(s\) name no node of the tree "bike-shop": "spedizione" \(1×\), "resi" \(1×\)/,
    );
  });

  test('a .ts tree with top-level await outside an ESM package: a clear error; as .mts it loads', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'tla-tree-'));
    try {
      const source = `const chunks = await Promise.resolve(['ciao']);
export default { nodes: [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 3, type: 'emit', parent: 2, name: 'hi', chunks, emit: { message: { type: 'static', content: 'hi' } } },
] };
`;
      writeFileSync(join(outside, 'tree.ts'), source);
      const failed = capture();
      expect(await main(['inspect', join(outside, 'tree.ts')], failed)).toBe(2);
      expect(failed.err.join('\n')).toMatch(
        /tree\.ts:1:\d+ uses top-level await, but it is loaded as CommonJS .* Rename it to .*tree\.mts, or add a package\.json with \{ "type": "module" \}/,
      );
      writeFileSync(join(outside, 'tree.mts'), source);
      const loaded = capture();
      expect(await main(['inspect', join(outside, 'tree.mts')], loaded)).toBe(0);
      expect(loaded.out.join('\n')).toContain('3 emit "hi"');
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('a .ts tree outside an ESM package (compiled as CommonJS) loads with its default and named exports', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'cjs-tree-'));
    try {
      writeFileSync(
        join(outside, 'tree.ts'),
        `export const topics = ['greetings'];
export default { nodes: [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 3, type: 'emit', parent: 2, name: 'hi', chunks: ['ciao'], emit: { message: { type: 'static', content: 'hi' } } },
] };
`,
      );
      const loaded = capture();
      // It used to say "does not export a tree": the default was one level down.
      expect(await main(['inspect', join(outside, 'tree.ts')], loaded)).toBe(0);
      expect(loaded.out.join('\n')).toContain('3 emit "hi"');
      const { importTreeModule } = await import('./load-tree.js');
      const exports = await importTreeModule(join(outside, 'tree.ts'), []);
      expect(exports.topics).toEqual(['greetings']);
      expect(Object.keys(exports).sort()).toEqual(['default', 'topics']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('eval --json prints the whole report', async () => {
    const output = capture();
    await main(['eval', bikeShop, utterances, '--json', '--data', data], output);
    const report = JSON.parse(output.out.join('\n'));
    expect(report.total).toBe(62);
    expect(report.results[0]).toMatchObject({
      text: 'buongiorno a tutti',
      expected: 'saluto',
      predicted: 'saluto',
    });
  });

  test('test plays conversation files: exit 0 when they pass, 1 with a diff when one fails', async () => {
    const passing = fileURLToPath(
      new URL('../../../examples/src/bike-shop/conversations/orders.yaml', import.meta.url),
    );
    const ok = capture();
    expect(await main(['test', bikeShop, passing], ok)).toBe(0);
    expect(ok.out.join('\n')).toMatch(/1 passed, 0 failed/);
    const failing = join(scratch, 'failing.yaml');
    writeFileSync(failing, 'name: wrong\nturns:\n  - say: Ciao!\n    expect: { node: stato ordine }\n');
    const ko = capture();
    expect(await main(['test', bikeShop, failing], ko)).toBe(1);
    expect(ko.out.join('\n')).toContain('- expected "stato ordine"');
    expect(ko.out.join('\n')).toContain('+ actual   "saluto"');
  });

  test('lint prints validation errors (exit 1) or warnings (exit 0, 1 with --strict)', async () => {
    const invalid = join(scratch, 'lint-invalid.json');
    writeFileSync(
      invalid,
      JSON.stringify({
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true },
          { id: 3, type: 'emit', parent: 9 },
        ],
      }),
    );
    const errors = capture();
    expect(await main(['lint', invalid], errors)).toBe(1);
    expect(errors.out.join('\n')).toContain('error   node 3: parent 9 does not exist.');
    const warned = join(scratch, 'lint-warn.json');
    writeFileSync(
      warned,
      JSON.stringify({
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true },
          {
            id: 3,
            type: 'emit',
            parent: 2,
            chunks: ['ciao'],
            emit: { message: { type: 'static', content: 'x' } },
          },
          { id: 4, type: 'emit', parent: 2, emit: { message: { type: 'static', content: 'y' } } },
        ],
      }),
    );
    const warnings = capture();
    expect(await main(['lint', warned], warnings)).toBe(0);
    expect(warnings.out.join('\n')).toMatch(/warning \[unreachable-node\] node 4/);
    expect(await main(['lint', warned, '--strict'], capture())).toBe(1);
  });

  test("a tree module's fit export turns the fit at load off (lint says so); a wrong value names the file and the choices", async () => {
    const topic = (id: number, word: string) =>
      `{ id: ${id}, type: 'emit', parent: 2, name: '${word}', chunks: Array.from({ length: 60 }, (_, i) => '${word} question ' + i), emit: { message: { type: 'static', content: '${word}' } } }`;
    const source = (fit: string) => `import { defineTree } from '@treeagent/core';
export const fit = ${fit};
export default defineTree({ name: 'topics', nodes: [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  ${topic(3, 'bike')},
  ${topic(4, 'helmet')},
] });
`;
    const off = join(scratch, 'fit-off.ts');
    writeFileSync(off, source('false'));
    const output = capture();
    expect(await main(['lint', off], output)).toBe(0);
    expect(output.out.join('\n')).toMatch(/info {4}embedding space: unfitted \(hashed[^)]*\): fit: false\./);
    const wrong = join(scratch, 'fit-wrong.ts');
    writeFileSync(wrong, source("'yes'"));
    const failed = capture();
    expect(await main(['lint', wrong], failed)).toBe(2);
    expect(failed.err.join('\n')).toContain(`${wrong} exports fit = "yes"; export true`);
  });

  test('lint on a tree above LINT_FIT_MAX_CHUNKS: no fit, the unfitted thresholds, the same warnings', async () => {
    // Topics of 20 leaves, each leaf one chunk of three made-up words; leaf 7 repeats leaf 5's chunk.
    const syllables = ['ba', 'co', 'di', 'fe', 'ga', 'li', 'mo', 'nu', 'pe', 'ra', 'si', 'to', 'vu', 'ze'];
    const word = (n: number) =>
      syllables[n % 14]! + syllables[Math.floor(n / 14) % 14]! + syllables[Math.floor(n / 196) % 14]!;
    const nodes: object[] = [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
    ];
    let topic = 0;
    for (let id = 3; id < LINT_FIT_MAX_CHUNKS + 300; id++) {
      if ((id - 3) % 21 === 0) {
        topic = id;
        nodes.push({ id, type: 'empty', parent: 2 });
        continue;
      }
      const leaf = id === 7 ? 5 : id;
      const chunk = `${word(3 * leaf)} ${word(3 * leaf + 1)} ${word(3 * leaf + 2)}`;
      nodes.push({
        id,
        type: 'emit',
        parent: topic,
        chunks: [chunk],
        emit: { message: { type: 'static', content: 'ok' } },
      });
    }
    const file = join(scratch, 'lint-large.json');
    writeFileSync(file, JSON.stringify({ nodes }));
    const output = capture();
    expect(await main(['lint', file], output)).toBe(0);
    const text = output.out.join('\n');
    expect(text).toContain(`lint does not fit trees of more than ${LINT_FIT_MAX_CHUNKS} exploration chunks`);
    expect(text).toMatch(/warning \[ambiguous-siblings\] node \d+: under node \d+, the subtrees of 5 and 7/);
    expect(text).toMatch(/info {4}node 2: similarityThreshold [\d.]+ \(calibrated at load/);
    expect(text).not.toContain('fitted to the tree');
  });

  test('lint on a large deep tree: the warnings in linear time, the thresholds only with --thresholds', async () => {
    // Ten chains of follow-ups under the agent, each node one chunk of made-up words: the nodes of a
    // chain sample different chunks and each is compared with nearly the whole chain below it.
    const syllables = ['ba', 'co', 'di', 'fe', 'ga', 'li', 'mo', 'nu', 'pe', 'ra', 'si', 'to', 'vu', 'ze'];
    const word = (n: number) =>
      syllables[n % 14]! + syllables[Math.floor(n / 14) % 14]! + syllables[Math.floor(n / 196) % 14]!;
    const nodes: object[] = [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
    ];
    const perChain = Math.ceil((LINT_FIT_MAX_CHUNKS + 200) / 10);
    let id = 3;
    for (let chain = 0; chain < 10; chain++) {
      let parent = 2;
      for (let step = 0; step < perChain; step++, id++) {
        nodes.push({
          id,
          type: 'emit',
          parent,
          chunks: [`${word(3 * id)} ${word(3 * id + 1)} ${word(3 * id + 2)}`],
          emit: { message: { type: 'static', content: 'ok' } },
        });
        parent = id;
      }
    }
    const file = join(scratch, 'lint-deep.json');
    writeFileSync(file, JSON.stringify({ nodes }));
    const tree = defineTree(definitionFromJSON({ nodes } as never));
    const exploring = tree.chunks.length;
    expect(calibrationReads(tree)).toBeGreaterThan(LINT_CALIBRATION_MAX_READS_PER_CHUNK * exploring);

    const output = capture();
    expect(await main(['lint', file], output)).toBe(0);
    const text = output.out.join('\n');
    expect(text).toContain('info    thresholds not computed: calibrating this tree');
    expect(text).not.toMatch(/similarityThreshold [\d.]+ \(calibrated at load/);
    expect(text).toMatch(/0 errors, \d+ warning\(s\)$/);

    const asked = capture();
    expect(await main(['lint', file, '--thresholds'], asked)).toBe(0);
    const full = asked.out.join('\n');
    expect(full).not.toContain('thresholds not computed');
    expect(full).toMatch(/info {4}node 2: similarityThreshold [\d.]+ \(calibrated at load/);
    // The warnings are the same either way.
    const warningsOf = (lines: string[]) => lines.filter((line) => line.startsWith('warning'));
    expect(warningsOf(output.out)).toEqual(warningsOf(asked.out));
  });

  test('ingest loads Markdown, PDF and HTML documents into a query node; re-runs write nothing new; chat retrieves them', async () => {
    const tree = join(scratch, 'docs-tree.ts');
    writeFileSync(
      tree,
      `import { defineTree } from '@treeagent/core';
export default defineTree({ name: 'docs', nodes: [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 3, type: 'query', parent: 2, name: 'manuali', chunks: ['garanzia', 'manuale', 'regolare i freni a disco'], query: (_s, c) => ({ query: c.input.original, chunkQty: 1, threshold: 0.1 }), after: () => ({ nodeTarget: 4, step: 'before' }) },
  { id: 4, type: 'emit', parent: 3, emit: (_s, c) => ({ message: { type: 'static', content: c.retrieved.get(3)?.[0]?.text ?? 'niente' } }) },
] });
`,
    );
    const folder = join(scratch, 'manuali');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'garanzia.md'), '# Garanzia\n\nLa garanzia dura due anni dalla consegna.');
    writeFileSync(join(folder, 'freni.pdf'), tinyPdf('Regolare i freni a disco ogni sei mesi.'));
    writeFileSync(
      join(folder, 'orari.html'),
      '<html><head><title>Orari</title></head><body><nav>Menu</nav><h1>Orari</h1><p>Il negozio apre alle nove.</p></body></html>',
    );
    const first = capture();
    expect(await main(['ingest', tree, 'manuali', folder, '--data', data], first)).toBe(0);
    expect(first.out.join('\n')).toMatch(
      /3 document\(s\) into node 3 \("manuali"\): 3 chunk\(s\) written, 0 unchanged, 0 removed/,
    );
    const again = capture();
    expect(await main(['ingest', tree, '3', folder, '--data', data], again)).toBe(0);
    expect(again.out.join('\n')).toMatch(/0 chunk\(s\) written, 3 unchanged/);
    const output = capture();
    await chatCommand(
      tree,
      { data, session: 'docs' },
      output,
      Readable.from(['ogni quanto regolare i freni a disco?\n', '\n']),
    );
    expect(output.out.join('\n')).toContain('Regolare i freni a disco ogni sei mesi.');
    expect(await main(['ingest', tree, '4', folder, '--data', data], capture())).toBe(2);
    // Files over --max-bytes (default 10 MiB) are refused, naming the file, before anything is read.
    const tooBig = capture();
    expect(await main(['ingest', tree, '3', folder, '--data', data, '--max-bytes', '20'], tooBig)).toBe(2);
    expect(tooBig.err.join('\n')).toMatch(/garanzia\.md|freni\.pdf|orari\.html/);
    expect(await main(['ingest', tree, '3', folder, '--data', data, '--max-bytes', 'lots'], capture())).toBe(
      2,
    );
  });

  test('bad input exits with 2 and says what is wrong', async () => {
    const missing = capture();
    expect(await main(['inspect', join(scratch, 'nope.ts')], missing)).toBe(2);
    expect(missing.err.join('\n')).toMatch(/does not exist/);
    const invalid = join(scratch, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ nodes: [{ id: 1, type: 'root' }] }));
    const problems = capture();
    expect(await main(['inspect', invalid], problems)).toBe(2);
    expect(problems.err.join('\n')).toMatch(/primary agents/);
    expect(await main(['frobnicate'], capture())).toBe(2);
  });

  test('a JSON tree loads, and utterances in JSON are read', async () => {
    const tree = join(scratch, 'tree.json');
    writeFileSync(
      tree,
      JSON.stringify({
        nodes: [
          { id: 1, type: 'root' },
          { id: 2, type: 'agent', parent: 1, isPrimary: true },
          {
            id: 3,
            type: 'emit',
            parent: 2,
            name: 'hello',
            chunks: ['ciao a tutti'],
            emit: { message: { type: 'static', content: 'Ciao!' } },
          },
        ],
      }),
    );
    const file = join(scratch, 'utterances.json');
    writeFileSync(file, JSON.stringify([['ciao a tutti voi', 'hello']]));
    const output = capture();
    expect(await main(['eval', tree, file, '--json', '--data', data], output)).toBe(0);
    expect(JSON.parse(output.out.join('\n')).accuracy).toBe(1);
  });

  test('chat answers each line, numbers pick options, --debug shows explore decisions', async () => {
    const output = capture();
    const input = Readable.from(['ciao\n', '1\n', '\n']);
    expect(await chatCommand(bikeShop, { debug: true, session: 't', data }, output, input)).toBe(0);
    const text = output.out.join('\n');
    expect(text).toContain("Ciao! Sono l'assistente di Ciclofficina Rossi.");
    expect(text).toContain('  1) Spedizioni');
    expect(text).toContain('la spedizione costa 7,90 €');
    expect(output.err.join('\n')).toMatch(
      /\[explore\] node 2: descend — best "ciao" \(node 10\) 1\.000 vs 0\.25 \(calibrated\) → 10/,
    );
  });
});

describe('a callback that throws is visible', () => {
  const tree = join(scratch, 'throwing.ts');
  writeFileSync(
    tree,
    `import { defineTree } from '@treeagent/core';
export default defineTree({
  nodes: [
    { id: 1, type: 'root' },
    {
      id: 2, type: 'agent', parent: 1, isPrimary: true, links: { sorry: 99 },
      fallback: (_self, _context, _special, links) => ({ nodeTarget: links.sorry }),
    },
    {
      id: 3, type: 'emit', parent: 2, name: 'broken', chunks: ['ciao'],
      before: function checkStock() {
        throw new Error('stock service unreachable');
      },
      emit: { message: { type: 'static', content: 'never' } },
    },
    { id: 99, type: 'emit', parent: 2, name: 'sorry', emit: { message: { type: 'static', content: 'Scusa!' } } },
  ],
});
`,
  );

  test('chat --debug shows the code, node, callback, message and the frame in the tree file', async () => {
    const output = capture();
    const input = Readable.from(['ciao\n', '\n']);
    expect(await chatCommand(tree, { debug: true, session: 'e', data }, output, input)).toBe(0);
    expect(output.out.join('\n')).toContain('Scusa!');
    expect(output.err.join('\n')).toMatch(
      /\[fallback\] agent 2: CALLBACK_ERROR in the "before" callback of node 3: .*stock service unreachable \(at checkStock \(.*throwing\.ts:\d+:\d+\)\) → node 99/,
    );
  });

  test('treeagent test prints the handled error with a failing turn, once', async () => {
    const conversations = join(scratch, 'throwing.yaml');
    writeFileSync(conversations, 'name: rotta\nturns:\n  - say: ciao\n    expect: { node: broken }\n');
    const output = capture();
    expect(await main(['test', tree, conversations], output)).toBe(1);
    const text = output.out.join('\n');
    expect(text).toMatch(
      /error in the turn: CALLBACK_ERROR in the "before" callback of node 3: .*stock service unreachable \(at checkStock \(.*throwing\.ts:\d+:\d+\)\)/,
    );
    expect(text.match(/rotta/g)).toHaveLength(1);
    expect(text).toMatch(/0 passed, 1 failed$/);
  });
});

/** A minimal one-page PDF with one line of text. */
function tinyPdf(text: string): Buffer {
  const content = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
