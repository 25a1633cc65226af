import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pulledModels } from '@treeagent/fit';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { main } from '../main.js';
import { capture } from '../test-support/capture.js';

const scratch = mkdtempSync(fileURLToPath(new URL('../../.scratch-', import.meta.url)));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A tiny model in the hub's layout, made here: the files transformers.js reads, the ONNX file large
// enough to be cut in the middle. Small files are listed with their git blob sha1, the ONNX file
// (kept in LFS on the hub) with its sha256, as the hub's tree listing does.
const MODEL = 'tiny-org/tiny-multilingual-encoder';
const files: Record<string, Buffer> = {
  'config.json': Buffer.from(
    JSON.stringify({ model_type: 'bert', hidden_size: 8, max_position_embeddings: 32 }),
  ),
  'tokenizer.json': Buffer.from(
    JSON.stringify({ version: '1.0', model: { type: 'WordPiece', vocab: { '[UNK]': 0 } } }),
  ),
  'tokenizer_config.json': Buffer.from(JSON.stringify({ tokenizer_class: 'BertTokenizer' })),
  'onnx/model_quantized.onnx': randomBytes(256 * 1024),
};
const gitSha1 = (content: Buffer) =>
  createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/** What the hub does on the next requests: cut the ONNX file halfway, or list a wrong checksum. */
const behaviour = { cutOnnx: false, wrongChecksum: false };
const requests: { url: string; range?: string }[] = [];
let server: Server;
let hub: string;

function listing() {
  return Object.entries(files).map(([path, content]) =>
    path.endsWith('.onnx')
      ? {
          type: 'file',
          path,
          size: content.length,
          oid: gitSha1(Buffer.from('pointer')),
          lfs: {
            oid: behaviour.wrongChecksum ? sha256(Buffer.from('other')) : sha256(content),
            size: content.length,
          },
        }
      : { type: 'file', path, size: content.length, oid: gitSha1(content) },
  );
}

function serveFile(request: IncomingMessage, response: import('node:http').ServerResponse, content: Buffer) {
  const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
  const start = range ? Number(range[1]) : 0;
  const body = content.subarray(start);
  response.writeHead(range ? 206 : 200, {
    'content-length': String(body.length),
    ...(range ? { 'content-range': `bytes ${start}-${content.length - 1}/${content.length}` } : {}),
  });
  if (behaviour.cutOnnx && request.url!.endsWith('.onnx')) {
    behaviour.cutOnnx = false;
    // Half the bytes, then the connection drops: what a network failure does mid-download.
    response.write(body.subarray(0, body.length / 2), () => request.socket.end());
    return;
  }
  response.end(body);
}

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push({ url: request.url!, ...(request.headers.range ? { range: request.headers.range } : {}) });
    const url = new URL(request.url!, 'http://hub');
    if (url.pathname === `/api/models/${MODEL}/tree/main`) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(listing()));
      return;
    }
    const prefix = `/${MODEL}/resolve/main/`;
    const content = url.pathname.startsWith(prefix) ? files[url.pathname.slice(prefix.length)] : undefined;
    if (!content) {
      response.writeHead(404).end('Repository not found');
      return;
    }
    serveFile(request, response, content);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  hub = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));
beforeEach(() => {
  requests.length = 0;
  behaviour.cutOnnx = false;
  behaviour.wrongChecksum = false;
});

let runs = 0;
const freshData = () => join(scratch, `data-${++runs}`);
const pull = async (data: string, ...extra: string[]) => {
  const out = capture();
  const code = await main(['models', 'pull', MODEL, '--data', data, '--hub-url', hub, ...extra], out);
  return { code, out };
};
const folder = (data: string) => join(data, 'models', ...MODEL.split('/'));

describe('treeagent models pull', () => {
  test('downloads the model into the data directory, each file checked, and records it as multilingual', async () => {
    const data = freshData();
    const { code, out } = await pull(data);
    expect(out.err).toEqual([]);
    expect(code).toBe(0);
    for (const [path, content] of Object.entries(files))
      expect(readFileSync(join(folder(data), path)).equals(content)).toBe(true);
    const [pulled, ...others] = await pulledModels(join(data, 'models'));
    expect(others).toEqual([]);
    expect(pulled!.folder).toBe(folder(data));
    expect(pulled!.manifest).toMatchObject({
      name: MODEL,
      hub,
      onnx: 'onnx/model_quantized.onnx',
      multilingual: true,
    });
    expect(out.out.join('\n')).toMatch(/Pulled tiny-org\/tiny-multilingual-encoder into .*multilingual/);
  });

  test('an interrupted download is not installed, and the next pull resumes it with an HTTP Range', async () => {
    const data = freshData();
    behaviour.cutOnnx = true;
    const first = await pull(data);
    expect(first.code).toBe(2);
    expect(first.out.err.join('\n')).toMatch(/stopped .*run the same command again, it resumes/);
    expect(existsSync(folder(data))).toBe(false);
    expect(await pulledModels(join(data, 'models'))).toEqual([]);
    const onnx = files['onnx/model_quantized.onnx']!;
    const kept = statSync(join(`${folder(data)}.partial`, 'onnx/model_quantized.onnx.part')).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(onnx.length);

    requests.length = 0;
    const second = await pull(data);
    expect(second.out.err).toEqual([]);
    expect(second.code).toBe(0);
    const resumed = requests.find((request) => request.url.endsWith('.onnx'));
    expect(resumed?.range).toBe(`bytes=${kept}-`);
    expect(readFileSync(join(folder(data), 'onnx/model_quantized.onnx')).equals(onnx)).toBe(true);
    expect(second.out.out.join('\n')).toMatch(/model_quantized\.onnx: resumed, checksum verified/);
  });

  test('a file that does not match its checksum is deleted and nothing is installed', async () => {
    const data = freshData();
    behaviour.wrongChecksum = true;
    const { code, out } = await pull(data);
    expect(code).toBe(2);
    expect(out.err.join('\n')).toMatch(/onnx\/model_quantized\.onnx .* does not match the hub's checksum/);
    expect(existsSync(folder(data))).toBe(false);
    expect(existsSync(join(`${folder(data)}.partial`, 'onnx/model_quantized.onnx.part'))).toBe(false);
  });

  test('a model the hub does not have, and a hub it cannot reach, are errors that say what to do', async () => {
    const data = freshData();
    const missing = capture();
    expect(
      await main(['models', 'pull', 'tiny-org/no-such-model', '--data', data, '--hub-url', hub], missing),
    ).toBe(2);
    expect(missing.err.join('\n')).toMatch(/"tiny-org\/no-such-model" .* is not on the hub .*check its name/);

    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((done) => closed.close(() => done()));
    const offline = capture();
    expect(
      await main(['models', 'pull', MODEL, '--data', data, '--hub-url', `http://127.0.0.1:${port}`], offline),
    ).toBe(2);
    expect(offline.err.join('\n')).toMatch(
      /Cannot reach the model hub at http:\/\/127\.0\.0\.1:\d+ .*--hub-url/,
    );

    const badName = capture();
    expect(await main(['models', 'pull', '../etc', '--data', data, '--hub-url', hub], badName)).toBe(2);
    expect(badName.err.join('\n')).toMatch(/not a model name: give it as owner\/name/);
    expect(await pulledModels(join(data, 'models'))).toEqual([]);
  });
});
