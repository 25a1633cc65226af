/**
 * A TensorFlow.js graph model as its `model.json` and weight shards describe it: the nodes, and
 * the constants (weights) read from the shards, int32 ones widened to int64 for ONNX.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** An attribute of a TensorFlow node, as `model.json` writes it (64-bit ints as strings). */
export interface TfAttribute {
  i?: string;
  f?: number;
  b?: boolean;
  type?: number | string;
  /** A string, base64 (`data_format`, `padding`). */
  s?: string;
  list?: { i?: string[] };
}

export interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttribute>;
}

export interface TfConstant {
  dims: readonly number[];
  type: 'float' | 'int64';
  data: Float32Array | BigInt64Array;
}

export interface TfGraph {
  nodes: TfNode[];
  constants: Map<string, TfConstant>;
}

interface ModelJson {
  modelTopology: { node: TfNode[] };
  weightsManifest: {
    paths: string[];
    weights: { name: string; shape: number[]; dtype: string; quantization?: unknown }[];
  }[];
}

/** Reads `model.json` and its shards from `directory`. */
export async function readTfGraph(directory: string): Promise<TfGraph> {
  const model = JSON.parse(await readFile(join(directory, 'model.json'), 'utf8')) as ModelJson;
  const constants = new Map<string, TfConstant>();
  for (const group of model.weightsManifest) {
    const shards = Buffer.concat(
      await Promise.all(group.paths.map((path) => readFile(join(directory, path)))),
    );
    let offset = 0;
    for (const weight of group.weights) {
      if (weight.quantization)
        throw new Error(`weight ${weight.name} is quantized, which the conversion does not read`);
      const count = weight.shape.reduce((product, dim) => product * dim, 1);
      // A copy, aligned for the typed array (a shard's weights start at any byte).
      const bytes = shards.buffer.slice(shards.byteOffset + offset, shards.byteOffset + offset + count * 4);
      offset += count * 4;
      if (weight.dtype === 'float32')
        constants.set(weight.name, { dims: weight.shape, type: 'float', data: new Float32Array(bytes) });
      else if (weight.dtype === 'int32')
        constants.set(weight.name, {
          dims: weight.shape,
          type: 'int64',
          data: BigInt64Array.from(new Int32Array(bytes), (value) => BigInt(value)),
        });
      else throw new Error(`weight ${weight.name} is ${weight.dtype}, which the conversion does not read`);
    }
  }
  return { nodes: model.modelTopology.node, constants };
}
