import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

// Inside the package, so that tree files written by the tests resolve @treeagent/core.
const scratch = mkdtempSync(fileURLToPath(new URL('../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
writeFileSync(join(scratch, 'package.json'), '{ "type": "module" }');

const BIN = fileURLToPath(new URL('./bin.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function tree(name: string, text: string): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

/** The real command in its own process (as a user runs it; tsx only because this is the source). */
function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', BIN, ...argv], { cwd: ROOT }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, out: stdout, err: stderr }),
    );
  });
}

const VALID = `import { defineTree } from '@treeagent/core';
export default defineTree({ nodes: [{ id: 1, type: 'root' }, { id: 2, type: 'agent', parent: 1, isPrimary: true }] });
`;

describe("a user's mistake is one message naming the file and line (or the flag), exit code 2, no stack", () => {
  test('a syntax error in a TypeScript tree names file:line:column', async () => {
    const file = tree('syntax.ts', "export default {\n  nodes: [\n    { id: 1 type: 'root' },\n  ],\n};\n");
    const { code, err } = await run(['lint', file]);
    expect(code).toBe(2);
    expect(err).toContain(`${file}:3:13: SyntaxError: Expected "}" but found "type"`);
    expect(err).toContain('Fix the syntax error');
    expect(err).not.toMatch(/\n\s+at /);
  });

  test('a syntax error in a JavaScript tree names file:line', async () => {
    const file = tree('syntax.mjs', 'export default {\n  nodes: [\n};\n');
    const { code, err } = await run(['lint', file]);
    expect(code).toBe(2);
    expect(err).toMatch(new RegExp(`${file.replace(/[.]/g, '\\.')}:3(:\\d+)?: SyntaxError: `));
    expect(err).not.toMatch(/\n\s+at /);
  });

  test('an import that does not resolve names the importing file and the fix', async () => {
    const file = tree('missing.ts', "import { intents } from './intents.js';\nexport default intents;\n");
    const { code, err } = await run(['lint', file]);
    expect(code).toBe(2);
    expect(err).toContain(file);
    expect(err).toMatch(/Cannot find module '[^']*intents\.js'/);
    expect(err).toContain('Fix the import path');
  });

  test('a missing package says which one to install', async () => {
    const file = tree('package.ts', "import { x } from 'no-such-package-abc';\nexport default x;\n");
    const { code, err } = await run(['lint', file]);
    expect(code).toBe(2);
    expect(err).toContain('npm install no-such-package-abc');
  });

  test('an exception at the top of the tree module names file:line; --verbose adds the stack', async () => {
    const file = tree('throws.ts', "const a = 1;\nthrow new Error('boom in the tree');\nexport default a;\n");
    const { code, err } = await run(['lint', file]);
    expect(code).toBe(2);
    expect(err).toContain(`${file}:2:7: boom in the tree`);
    expect(err).not.toMatch(/\n\s+at /);
    const verbose = await run(['lint', file, '--verbose']);
    expect(verbose.code).toBe(2);
    expect(verbose.err).toMatch(/\n\s+at /);
  });

  test('--port abc names the flag', async () => {
    const { code, err } = await run(['dev', tree('ok.ts', VALID), '--port', 'abc']);
    expect(code).toBe(2);
    expect(err).toContain("option '--port <port>' argument 'abc' is invalid");
    expect(err).toContain('port number from 0 to 65535');
  });

  test('a port in use says so and how to choose another', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, out, err } = await run([
        'dev',
        tree('ok.ts', VALID),
        '--port',
        String(port),
        '--data',
        join(scratch, 'data'),
        '--no-watch',
      ]);
      expect(code).toBe(2);
      expect(err).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(err).toContain('--port');
      // Nothing started: no version recorded, nothing said about one before the error.
      expect(out).not.toContain('Recorded version');
    } finally {
      blocker.close();
    }
  });
});
