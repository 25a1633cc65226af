/**
 * Translates a TensorFlow.js graph model into an ONNX graph, node by node, so that ONNX Runtime's
 * native kernels compute what the WebAssembly backend of TensorFlow.js did, with the same weights.
 * It covers the ops USE-lite's graph uses (`translations.ts`); an op outside them is an error
 * that names it. TensorFlow's int32 tensors are int64 here: ONNX's index ops (`GatherND`,
 * `ScatterND`, `Shape`, `NonZero`) work in int64.
 */
import { OnnxBuilder } from './onnx-builder.js';
import type { OnnxGraph, OnnxValue } from './onnx-proto.js';
import type { TfGraph } from './tfjs-graph.js';
import { translations } from './translations.js';

/** A TensorFlow tensor reference (`name`, `name:1`, `^control`) as the ONNX value name used here. */
export function tensorName(reference: string): string {
  const [node, output = '0'] = reference.split(':');
  return `${node}:${output}`;
}

/** Translates `graph`: `inputs` and `outputs` name TensorFlow placeholders and nodes (`name:0`). */
export function tfjsToOnnx(
  graph: TfGraph,
  io: { inputs: readonly OnnxValue[]; outputs: readonly OnnxValue[] },
): OnnxGraph {
  const builder = new OnnxBuilder(graph.constants);
  for (const node of graph.nodes) {
    if (node.op === 'Placeholder') continue;
    if (node.op === 'Const') {
      const constant = graph.constants.get(node.name);
      if (!constant) throw new Error(`the constant ${node.name} has no weight in the shards`);
      builder.keep(`${node.name}:0`, constant);
      continue;
    }
    const translate = translations[node.op];
    if (!translate)
      throw new Error(
        `the graph has a ${node.op} node (${node.name}), which the ONNX conversion does not translate`,
      );
    const inputs = (node.input ?? []).filter((input) => !input.startsWith('^')).map(tensorName);
    translate(node, inputs, `${node.name}:0`, builder);
  }
  return { nodes: builder.nodes, initializers: builder.initializersUsed(), ...io, opset: 18 };
}
