import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { TreeAgentError } from '@treeagent/core';
import { MODEL_MANIFEST, type ModelManifest } from '@treeagent/fit';
import { type HubFile, hubFetch, listHubFiles } from './model-hub.js';

export interface PullModelOptions {
  /** Where models go: `<data>/models`. The model lands in `<directory>/<owner>/<name>`. */
  directory: string;
  /** Hub base URL. */
  hub: string;
  revision?: string;
  /** Pull `onnx/model_quantized.onnx` (default) rather than `onnx/model.onnx`. */
  quantized?: boolean;
  /** Mark it a multilingual encoder (the fit's base for trees not in English). Default: from its name. */
  multilingual?: boolean;
  /** Said of each file as it is done. */
  onFile?: (file: string, state: 'downloaded' | 'resumed' | 'present') => void;
}

/** The files a transformers.js feature-extraction model needs (besides its ONNX file). */
const REQUIRED = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
const OPTIONAL = ['special_tokens_map.json', 'sentence_bert_config.json', 'modules.json'];
const NAME = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/;

/** The folder a pulled model lives in. */
export function modelFolder(directory: string, name: string): string {
  return join(directory, ...name.split('/'));
}

/**
 * Downloads a model from a hub in the Hugging Face layout into `<directory>/<owner>/<name>`: each file
 * into a `.partial` folder beside it (a broken download resumes where it stopped, by HTTP Range),
 * each checked against the hub's checksum, and the folder renamed into place only when every file is
 * there and right — a half-pulled model is never where the embedder looks.
 */
export async function pullModel(name: string, options: PullModelOptions): Promise<ModelManifest> {
  if (!NAME.test(name))
    throw new TreeAgentError(
      'INVALID_INPUT',
      `"${name}" is not a model name: give it as owner/name, as the hub spells it (e.g. Xenova/paraphrase-multilingual-MiniLM-L12-v2).`,
    );
  const revision = options.revision ?? 'main';
  const quantized = options.quantized ?? true;
  const onnx = quantized ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
  const listed = new Map((await listHubFiles(options.hub, name, revision)).map((file) => [file.path, file]));
  const missing = [...REQUIRED, onnx].filter((path) => !listed.has(path));
  if (missing.length > 0)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `The model "${name}" on ${options.hub} is not exported for transformers.js: it has no ${missing.join(', ')}. Pull a model with an onnx/ folder (e.g. an Xenova/… export)${quantized ? ', or pass --no-quantized for onnx/model.onnx' : ''}. Nothing was installed.`,
    );
  const wanted = [...REQUIRED, ...OPTIONAL.filter((path) => listed.has(path)), onnx].map(
    (path) => listed.get(path)!,
  );
  const target = modelFolder(options.directory, name);
  const partial = `${target}.partial`;
  const files: ModelManifest['files'] = [];
  for (const file of wanted) {
    const sha256 = await downloadFile(
      options.hub,
      name,
      revision,
      file,
      join(partial, file.path),
      options.onFile,
    );
    files.push({ path: file.path, size: file.size, sha256 });
  }
  const manifest: ModelManifest = {
    name,
    hub: options.hub,
    revision,
    onnx,
    quantized,
    multilingual:
      options.multilingual ?? /multilingual|multi-lingual|xlm|labse|\bm[-_]?e5\b|bge-m3/i.test(name),
    files,
    pulledAt: new Date().toISOString(),
  };
  await writeFile(join(partial, MODEL_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  await rm(target, { recursive: true, force: true });
  await rename(partial, target);
  return manifest;
}

/** Downloads one file to `destination` (resuming its `.part`), checks it, and returns its sha256. */
async function downloadFile(
  hub: string,
  name: string,
  revision: string,
  file: HubFile,
  destination: string,
  onFile: PullModelOptions['onFile'],
): Promise<string> {
  await mkdir(dirname(destination), { recursive: true });
  if (await exists(destination)) {
    onFile?.(file.path, 'present');
    return (await checksums(destination)).sha256;
  }
  const part = `${destination}.part`;
  const have = (await exists(part)) ? (await stat(part)).size : 0;
  const url = `${hub}/${name}/resolve/${encodeURIComponent(revision)}/${file.path}`;
  const response = await hubFetch(url, hub, have > 0 ? { headers: { Range: `bytes=${have}-` } } : undefined);
  if (response.status === 404)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `The hub at ${hub} lists ${file.path} for "${name}" but does not serve it (HTTP 404): try again later. Nothing was installed.`,
    );
  const resumed = response.status === 206;
  if (!response.ok || !response.body)
    throw new TreeAgentError(
      'EMBEDDER',
      `The hub at ${hub} answered HTTP ${response.status} for ${file.path} of "${name}": run the command again to resume. Nothing was installed.`,
    );
  // Each chunk is written as it comes, so that a broken connection keeps every byte received: the
  // next pull asks for the rest.
  const handle = await open(part, resumed ? 'a' : 'w');
  try {
    for await (const chunk of Readable.fromWeb(response.body as never)) await handle.write(chunk as Buffer);
  } catch (error) {
    throw new TreeAgentError(
      'EMBEDDER',
      `The download of ${file.path} of "${name}" stopped (${(error as Error).message}): run the same command again, it resumes where it stopped. Nothing was installed.`,
      { cause: error },
    );
  } finally {
    await handle.close();
  }
  const sums = await checksums(part);
  const expected = file.checksum.algorithm === 'sha256' ? sums.sha256 : sums.gitSha1;
  if (expected !== file.checksum.value) {
    await rm(part, { force: true });
    throw new TreeAgentError(
      'EMBEDDER',
      `${file.path} of "${name}" does not match the hub's checksum (${file.checksum.algorithm} ${file.checksum.value}, got ${expected}): the partial file was deleted; run the command again to download it anew. Nothing was installed.`,
    );
  }
  await rename(part, destination);
  onFile?.(file.path, resumed ? 'resumed' : 'downloaded');
  return sums.sha256;
}

/** The file's sha256, and its git blob sha1 (what the hub lists for files kept outside LFS). */
async function checksums(path: string): Promise<{ sha256: string; gitSha1: string }> {
  const size = (await stat(path)).size;
  const sha256 = createHash('sha256');
  const gitSha1 = createHash('sha1').update(`blob ${size}\0`);
  for await (const chunk of createReadStream(path)) {
    sha256.update(chunk as Buffer);
    gitSha1.update(chunk as Buffer);
  }
  return { sha256: sha256.digest('hex'), gitSha1: gitSha1.digest('hex') };
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );
