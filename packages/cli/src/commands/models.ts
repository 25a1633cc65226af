import { resolve } from 'node:path';
import { DEFAULT_DATA_DIRECTORY } from '../data-directory.js';
import { DEFAULT_MODEL_HUB, DEFAULT_MULTILINGUAL_MODEL } from '../models/model-hub.js';
import { modelFolder, pullModel } from '../models/pull-model.js';
import type { Output } from '../output.js';
import { defineCommand } from './command-definition.js';

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

/** `treeagent models pull <name>`: its help, arguments and options (the command table, `command-table.ts`). */
export const modelsDefinition = defineCommand({
  name: 'models',
  description: 'Sentence encoders kept in the data directory (models/).',
  subcommands: [
    defineCommand({
      name: 'pull',
      description: `Download a sentence encoder exported for transformers.js (ONNX, Hugging Face hub layout) into <data>/models/<owner>/<name>: each file checked against the hub's checksum, an interrupted download resumed, nothing used before all of it is in place. A multilingual one (e.g. ${DEFAULT_MULTILINGUAL_MODEL}) becomes the fit's base for trees not in English.`,
      arguments: [
        {
          name: '<name>',
          description: `the model as owner/name on the hub (e.g. ${DEFAULT_MULTILINGUAL_MODEL})`,
        },
      ],
      options: [
        { flags: '--data <directory>', description: 'data directory (models/)', default: '.treeagent' },
        {
          flags: '--hub-url <url>',
          description: 'hub base URL (default: TREEAGENT_MODEL_HUB, else https://huggingface.co)',
        },
        { flags: '--revision <revision>', description: 'branch, tag or commit on the hub', default: 'main' },
        {
          flags: '--no-quantized',
          description: 'pull onnx/model.onnx rather than onnx/model_quantized.onnx',
        },
        { flags: '--multilingual', description: 'mark it multilingual (default: from its name)' },
        { flags: '--no-multilingual', description: 'mark it not multilingual' },
      ],
      run: ([name], options, out) => modelsPullCommand(name, options, out),
    }),
  ],
});
