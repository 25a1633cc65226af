import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The file `treeagent models pull` writes last in a model's folder: what was pulled, from where, verified. */
export const MODEL_MANIFEST = 'treeagent-model.json';

/** What `MODEL_MANIFEST` holds. */
export interface ModelManifest {
  /** `owner/name` on the hub. */
  name: string;
  hub: string;
  revision: string;
  /** The ONNX file the embedder runs (`onnx/model_quantized.onnx` when `quantized`). */
  onnx: string;
  quantized: boolean;
  /** A multilingual sentence encoder: the `'auto'` fit base for trees not in English. */
  multilingual: boolean;
  /** Each file with the sha256 it was checked against. */
  files: { path: string; size: number; sha256: string }[];
  pulledAt: string;
}

/** A model in a models directory. */
export interface PulledModel {
  /** Its folder, the `modelPath` of a `TransformersEmbedder`. */
  folder: string;
  manifest: ModelManifest;
}

/**
 * The models pulled into `directory` (`<data>/models`): each `<owner>/<name>` folder with a
 * `MODEL_MANIFEST`, in name order. A download still under way (`<name>.partial`) is not one.
 */
export async function pulledModels(directory: string): Promise<PulledModel[]> {
  const found: PulledModel[] = [];
  for (const owner of (await readdir(directory).catch(() => [] as string[])).sort())
    for (const model of (await readdir(join(directory, owner)).catch(() => [] as string[])).sort()) {
      if (model.endsWith('.partial')) continue;
      const folder = join(directory, owner, model);
      const text = await readFile(join(folder, MODEL_MANIFEST), 'utf8').catch(() => null);
      if (text) found.push({ folder, manifest: JSON.parse(text) as ModelManifest });
    }
  return found;
}
