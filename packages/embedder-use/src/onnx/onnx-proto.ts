/**
 * ONNX's model format (onnx.proto, IR version 8), the messages and fields a converted graph uses:
 * tensors as raw little-endian bytes, nodes with int, ints and string attributes, and the
 * graph's inputs and outputs with their element types and shapes.
 */
import { ProtobufWriter } from './protobuf-writer.js';

/** ONNX element types (`TensorProto.DataType`) of the tensors a converted graph holds. */
export const OnnxType = { float: 1, int64: 7, bool: 9 } as const;
export type OnnxTypeName = keyof typeof OnnxType;

/** A constant tensor of the graph (an initializer). */
export interface OnnxTensor {
  name: string;
  type: 'float' | 'int64';
  dims: readonly number[];
  data: Float32Array | BigInt64Array;
}

/** An attribute's value: an int, a list of ints, or a string. */
export type OnnxAttribute = number | readonly number[] | { string: string };

export interface OnnxNode {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  attributes?: Readonly<Record<string, OnnxAttribute>>;
}

/** A graph input or output: its name, element type and dimensions (a string for a dynamic one). */
export interface OnnxValue {
  name: string;
  type: OnnxTypeName;
  dims: readonly (number | string)[];
}

export interface OnnxGraph {
  nodes: readonly OnnxNode[];
  initializers: readonly OnnxTensor[];
  inputs: readonly OnnxValue[];
  outputs: readonly OnnxValue[];
  /** The default domain's operator set the nodes follow. */
  opset: number;
}

/** The graph as an ONNX `ModelProto`'s bytes, what `InferenceSession.create` reads. */
export function encodeOnnxModel(graph: OnnxGraph): Uint8Array {
  const body = new ProtobufWriter();
  for (const node of graph.nodes) body.message(1, nodeProto(node));
  body.string(2, 'graph');
  for (const tensor of graph.initializers) body.message(5, tensorProto(tensor));
  for (const input of graph.inputs) body.message(11, valueInfoProto(input));
  for (const output of graph.outputs) body.message(12, valueInfoProto(output));
  return new ProtobufWriter()
    .int(1, 8) // ir_version
    .string(2, '@treeagent/embedder-use') // producer_name
    .message(7, body)
    .message(8, new ProtobufWriter().string(1, '').int(2, graph.opset))
    .bytes();
}

function tensorProto({ name, type, dims, data }: OnnxTensor): ProtobufWriter {
  const out = new ProtobufWriter();
  for (const dim of dims) out.int(1, dim);
  return out
    .int(2, OnnxType[type])
    .string(8, name)
    .raw(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
}

function nodeProto({ op, inputs, outputs, attributes = {} }: OnnxNode): ProtobufWriter {
  const out = new ProtobufWriter();
  for (const input of inputs) out.string(1, input);
  for (const output of outputs) out.string(2, output);
  out.string(4, op);
  for (const [name, value] of Object.entries(attributes)) out.message(5, attributeProto(name, value));
  return out;
}

// AttributeProto: name 1, i 3, s 4, ints 8, type 20 (INT 2, STRING 3, INTS 7).
function attributeProto(name: string, value: OnnxAttribute): ProtobufWriter {
  const out = new ProtobufWriter().string(1, name);
  if (typeof value === 'number') return out.int(3, value).int(20, 2);
  if (isIntList(value)) {
    for (const item of value) out.int(8, item);
    return out.int(20, 7);
  }
  return out.string(4, value.string).int(20, 3);
}

function isIntList(value: OnnxAttribute): value is readonly number[] {
  return Array.isArray(value);
}

function valueInfoProto({ name, type, dims }: OnnxValue): ProtobufWriter {
  const shape = new ProtobufWriter();
  for (const dim of dims)
    shape.message(
      1,
      typeof dim === 'string' ? new ProtobufWriter().string(2, dim) : new ProtobufWriter().int(1, dim),
    );
  const tensorType = new ProtobufWriter().int(1, OnnxType[type]).message(2, shape);
  return new ProtobufWriter().string(1, name).message(2, new ProtobufWriter().message(1, tensorType));
}
