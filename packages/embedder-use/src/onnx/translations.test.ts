import { InferenceSession, Tensor } from 'onnxruntime-node';
import { describe, expect, test } from 'vitest';
import { encodeOnnxModel, type OnnxValue } from './onnx-proto.js';
import type { TfConstant, TfNode } from './tfjs-graph.js';
import { tfjsToOnnx } from './tfjs-to-onnx.js';

// Small TensorFlow graphs, translated and run by ONNX Runtime, against what TensorFlow computes.
const ints = (values: number[], dims = [values.length]): TfConstant => ({
  dims,
  type: 'int64',
  data: BigInt64Array.from(values, (value) => BigInt(value)),
});
const attrInt = (value: number) => ({ i: String(value) });

async function run(
  nodes: TfNode[],
  constants: Record<string, TfConstant>,
  input: { dims: number[]; type: 'float' | 'int64'; data: number[] },
  output: string,
): Promise<{ dims: readonly number[]; data: number[] }> {
  const io: { inputs: OnnxValue[]; outputs: OnnxValue[] } = {
    inputs: [{ name: 'x:0', type: input.type, dims: input.dims }],
    outputs: [{ name: `${output}:0`, type: 'float', dims: [] }],
  };
  // Every constant is a Const node too, as in a converted graph.
  const constNodes = Object.keys(constants).map((name): TfNode => ({ name, op: 'Const' }));
  const graph = tfjsToOnnx(
    { nodes: [...constNodes, ...nodes], constants: new Map(Object.entries(constants)) },
    io,
  );
  const session = await InferenceSession.create(
    encodeOnnxModel({ ...graph, outputs: [{ ...io.outputs[0]!, type: outputType(nodes, output) }] }),
    {
      logSeverityLevel: 3,
    },
  );
  const x =
    input.type === 'float'
      ? new Tensor('float32', Float32Array.from(input.data), input.dims)
      : new Tensor(
          'int64',
          BigInt64Array.from(input.data, (value) => BigInt(value)),
          input.dims,
        );
  const result = (await session.run({ 'x:0': x }))[`${output}:0`]!;
  return { dims: result.dims, data: Array.from(result.data as ArrayLike<number | bigint>, Number) };
}

// The tests' outputs are float unless an index op ends the graph.
function outputType(nodes: TfNode[], output: string): 'float' | 'int64' {
  const op = nodes.find((node) => node.name === output)?.op;
  return op === 'Where' || op === 'SparseToDense' ? 'int64' : 'float';
}

const x234 = {
  dims: [2, 3, 4],
  type: 'float' as const,
  data: Array.from({ length: 24 }, (_, index) => index),
};

describe('translations of TensorFlow ops to ONNX', () => {
  test.each([
    // x[:, 1]: begin and end masks on axis 0, axis 1 shrunk.
    {
      slice: 'x[:, 1]',
      begin: [0, 1],
      end: [0, 2],
      masks: [1, 1, 2],
      dims: [2, 4],
      data: [4, 5, 6, 7, 16, 17, 18, 19],
    },
    // x[1:, :, -1]: the last element of a shrunk axis.
    {
      slice: 'x[1:, :, -1]',
      begin: [1, 0, -1],
      end: [0, 0, 0],
      masks: [2, 3, 4],
      dims: [1, 3],
      data: [15, 19, 23],
    },
  ])('StridedSlice $slice', async ({ begin, end, masks: [beginMask, endMask, shrinkMask], dims, data }) => {
    const attr = {
      begin_mask: attrInt(beginMask!),
      end_mask: attrInt(endMask!),
      shrink_axis_mask: attrInt(shrinkMask!),
    };
    const out = await run(
      [
        { name: 'x', op: 'Placeholder' },
        { name: 's', op: 'StridedSlice', input: ['x', 'b', 'e', 'st'], attr },
      ],
      { b: ints(begin), e: ints(end), st: ints(begin.map(() => 1)) },
      x234,
      's',
    );
    expect(out.dims).toEqual(dims);
    expect(out.data).toEqual(data);
  });

  test('StridedSlice x[::-1] (a begin mask with a negative stride starts at the end)', async () => {
    const out = await run(
      [
        { name: 'x', op: 'Placeholder' },
        {
          name: 's',
          op: 'StridedSlice',
          input: ['x', 'b', 'e', 'st'],
          attr: { begin_mask: attrInt(1), end_mask: attrInt(1) },
        },
      ],
      { b: ints([0]), e: ints([0]), st: ints([-1]) },
      { dims: [5], type: 'float', data: [0, 1, 2, 3, 4] },
      's',
    );
    expect(out.data).toEqual([4, 3, 2, 1, 0]);
  });

  test('Sum over no axes reduces nothing, as in TensorFlow', async () => {
    const out = await run(
      [
        { name: 'x', op: 'Placeholder' },
        { name: 's', op: 'Sum', input: ['x', 'axes'] },
      ],
      { axes: ints([]) },
      { dims: [5], type: 'float', data: [0, 1, 2, 3, 4] },
      's',
    );
    expect(out.data).toEqual([0, 1, 2, 3, 4]);
  });

  test('ScatterNd sums the updates of a repeated index', async () => {
    const out = await run(
      [
        { name: 'x', op: 'Placeholder' },
        { name: 's', op: 'ScatterNd', input: ['x', 'updates', 'shape'] },
      ],
      { shape: ints([3]), updates: { dims: [2], type: 'float', data: Float32Array.of(2, 3) } },
      { dims: [2, 1], type: 'int64', data: [1, 1] },
      's',
    );
    expect(out.data).toEqual([0, 5, 0]);
  });

  test('Reshape to a shape with a 0 makes an empty dimension, not a copy of the input one', async () => {
    const out = await run(
      [
        { name: 'x', op: 'Placeholder' },
        { name: 'r', op: 'Reshape', input: ['x', 'shape'] },
      ],
      { shape: ints([4, 0]) },
      { dims: [0, 4], type: 'float', data: [] },
      'r',
    );
    // ONNX's default would read [4, 0] as [4, 4] here, and fail: 16 elements out of none.
    expect(out.dims).toEqual([4, 0]);
  });

  test('Slice with a size of -1 runs to the end of its axis', async () => {
    const out = await run(
      [
        { name: 'x', op: 'Placeholder' },
        { name: 's', op: 'Slice', input: ['x', 'b', 'size'] },
      ],
      { b: ints([0, 1, 2]), size: ints([1, -1, 2]) },
      x234,
      's',
    );
    expect(out.dims).toEqual([1, 2, 2]);
    expect(out.data).toEqual([6, 7, 10, 11]);
  });

  test('Where of one input lists the coordinates of the true elements, row-major', async () => {
    const out = await run(
      [
        { name: 'x', op: 'Placeholder' },
        { name: 'g', op: 'Greater', input: ['x', 'zero'] },
        { name: 'w', op: 'Where', input: ['g'] },
      ],
      { zero: { dims: [], type: 'float', data: Float32Array.of(0) } },
      { dims: [2, 3], type: 'float', data: [0, 5, 0, 7, 0, 9] },
      'w',
    );
    expect(out.dims).toEqual([3, 2]);
    expect(out.data).toEqual([0, 1, 1, 0, 1, 2]);
  });

  test('SparseToDense writes the values at their indices over the default', async () => {
    const out = await run(
      [
        { name: 'x', op: 'Placeholder' },
        { name: 'd', op: 'SparseToDense', input: ['x', 'shape', 'values', 'fill'] },
      ],
      { shape: ints([2, 3]), values: ints([7, 8]), fill: ints([-1], []) },
      { dims: [2, 2], type: 'int64', data: [0, 2, 1, 0] },
      'd',
    );
    expect(out.dims).toEqual([2, 3]);
    expect(out.data).toEqual([-1, -1, 7, 8, -1, -1]);
  });

  test('BatchMatMul with adj_y multiplies by the transpose of the last two axes', async () => {
    const out = await run(
      [
        { name: 'x', op: 'Placeholder' },
        { name: 'm', op: 'BatchMatMul', input: ['x', 'x'], attr: { adj_y: { b: true } } },
      ],
      {},
      { dims: [1, 1, 2, 2], type: 'float', data: [1, 2, 3, 4] },
      'm',
    );
    expect(out.dims).toEqual([1, 1, 2, 2]);
    expect(out.data).toEqual([5, 11, 11, 25]);
  });

  test('an op without a translation is an error naming the op and the node', () => {
    expect(() =>
      tfjsToOnnx(
        {
          nodes: [
            { name: 'x', op: 'Placeholder' },
            { name: 'layer/fft', op: 'FFT', input: ['x'] },
          ],
          constants: new Map(),
        },
        { inputs: [], outputs: [] },
      ),
    ).toThrow('the graph has a FFT node (layer/fft), which the ONNX conversion does not translate');
  });
});
