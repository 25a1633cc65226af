import { resolve } from 'node:path';
import { DEFAULT_DATA_DIRECTORY } from '../data-directory.js';
import { DEFAULT_MODEL_HUB } from '../models/model-hub.js';
import { modelFolder, pullModel } from '../models/pull-model.js';
import type { Output } from '../output.js';

export interface ModelsPullOptions {
  data?: string;
  /** Hub base URL (default: TREEAGENT_MODEL_HUB, else the public Hugging Face hub). */
  hubUrl?: string;
  revision?: string;
  /** commander's `--no-quantized`. */
  quantized?: boolean;
  multilingual?: boolean;
}

/**
 * `treeagent models pull <name>`: downloads a sentence encoder exported for transformers.js into
 * `<data>/models/<owner>/<name>`, checked and resumable; 0 when it is in place.
 */
export async function modelsPullCommand(
  name: string,
  options: ModelsPullOptions,
  out: Output,
): Promise<number> {
  const hub = (options.hubUrl ?? process.env.TREEAGENT_MODEL_HUB ?? DEFAULT_MODEL_HUB).replace(/\/+$/, '');
  const directory = resolve(options.data ?? DEFAULT_DATA_DIRECTORY, 'models');
  const manifest = await pullModel(name, {
    directory,
    hub,
    ...(options.revision ? { revision: options.revision } : {}),
    ...(options.quantized === false ? { quantized: false } : {}),
    ...(options.multilingual !== undefined ? { multilingual: options.multilingual } : {}),
    onFile: (file, state) => out.log(`  ${file}: ${state}, checksum verified`),
  });
  out.log(
    `Pulled ${name} into ${modelFolder(directory, name)} (${manifest.onnx}${manifest.multilingual ? '; multilingual: the fit of a tree not in English is made over it' : ''}).`,
  );
  return 0;
}
