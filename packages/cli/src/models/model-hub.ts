import { TreeAgentError } from '@treeagent/core';

/** The public Hugging Face hub, where `treeagent models pull` looks unless told otherwise. */
export const DEFAULT_MODEL_HUB = 'https://huggingface.co';

/** A multilingual sentence encoder exported for transformers.js (ONNX), what `models pull` suggests. */
export const DEFAULT_MULTILINGUAL_MODEL = 'Xenova/paraphrase-multilingual-MiniLM-L12-v2';

/** One file of a model repository, as the hub's tree listing describes it. */
export interface HubFile {
  path: string;
  size: number;
  /** `sha256` of the content (large files, stored with LFS) or `sha1` of the git blob (small ones). */
  checksum: { algorithm: 'sha256' | 'git-sha1'; value: string };
}

interface HubTreeEntry {
  type: string;
  path: string;
  size?: number;
  oid?: string;
  lfs?: { oid?: string; sha256?: string; size?: number };
}

/** Fetches from the hub, turning a refused or failed connection into an error that says what to do. */
export async function hubFetch(url: string, hub: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new TreeAgentError(
      'INVALID_INPUT',
      `Cannot reach the model hub at ${hub} (${cause?.code ?? cause?.message ?? (error as Error).message}): check the network, or point --hub-url (TREEAGENT_MODEL_HUB) at a hub or mirror this machine can reach. Nothing was installed.`,
      { cause: error },
    );
  }
}

/** The files of `name` at `revision` on the hub, with their checksums (`/api/models/<name>/tree/<revision>`). */
export async function listHubFiles(hub: string, name: string, revision: string): Promise<HubFile[]> {
  const url = `${hub}/api/models/${name}/tree/${encodeURIComponent(revision)}?recursive=true`;
  const response = await hubFetch(url, hub);
  if (response.status === 404 || response.status === 401)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `The model "${name}" (revision ${revision}) is not on the hub at ${hub} (HTTP ${response.status}): check its name (owner/name, e.g. ${DEFAULT_MULTILINGUAL_MODEL}). Nothing was installed.`,
    );
  if (!response.ok)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `The model hub at ${hub} answered HTTP ${response.status} for the file list of "${name}": try again later. Nothing was installed.`,
    );
  const entries = (await response.json()) as HubTreeEntry[];
  const files: HubFile[] = [];
  for (const entry of entries) {
    if (entry.type !== 'file') continue;
    const sha256 = entry.lfs?.oid ?? entry.lfs?.sha256;
    if (sha256)
      files.push({
        path: entry.path,
        size: entry.lfs?.size ?? entry.size ?? 0,
        checksum: { algorithm: 'sha256', value: sha256 },
      });
    else if (entry.oid)
      files.push({
        path: entry.path,
        size: entry.size ?? 0,
        checksum: { algorithm: 'git-sha1', value: entry.oid },
      });
  }
  return files;
}
