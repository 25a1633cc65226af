import type { Embedder } from '@treeagent/core/adapter';
import { pulledModels } from './pulled-models.js';

/** The package whose `TransformersEmbedder` runs a pulled model. */
export const TRANSFORMERS_PACKAGE = '@treeagent/embedder-transformers';

/** Imports `@treeagent/embedder-transformers`' `TransformersEmbedder`. */
export type TransformersImporter = () => Promise<{
  TransformersEmbedder: new (options: {
    modelPath: string;
    quantized?: boolean;
    batchSize?: number;
  }) => Embedder;
}>;

const importTransformers: TransformersImporter = () => import(/* @vite-ignore */ TRANSFORMERS_PACKAGE);

/** Where the `'auto'` base looks for a multilingual encoder, and how it loads one. */
export interface MultilingualSource {
  /** The models directory (`<data>/models`, where `treeagent models pull` puts them). */
  directory?: string;
  importer?: TransformersImporter;
}

/**
 * The first multilingual model pulled into `source.directory` (in name order), as an embedder, with
 * its name; or why there is none, in a few words.
 */
export async function multilingualEmbedder(
  source: MultilingualSource,
): Promise<{ embedder: Embedder; name: string } | string> {
  if (!source.directory) return 'no models directory';
  const pulled = (await pulledModels(source.directory)).find((model) => model.manifest.multilingual);
  if (!pulled) return `no multilingual model pulled (treeagent models pull ${'<owner/name>'})`;
  try {
    const { TransformersEmbedder } = await (source.importer ?? importTransformers)();
    const embedder = new TransformersEmbedder({
      modelPath: pulled.folder,
      quantized: pulled.manifest.quantized,
      batchSize: 16,
    });
    return { embedder, name: pulled.manifest.name };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return (error as { code?: string })?.code === 'ERR_MODULE_NOT_FOUND' &&
      message.includes(TRANSFORMERS_PACKAGE)
      ? `${pulled.manifest.name} is pulled but ${TRANSFORMERS_PACKAGE} is not installed: npm install ${TRANSFORMERS_PACKAGE}`
      : `${TRANSFORMERS_PACKAGE} failed to load (${message})`;
  }
}
