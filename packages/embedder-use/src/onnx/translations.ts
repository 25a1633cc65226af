/**
 * One translation per TensorFlow op of USE-lite's graph: the ONNX node(s) (operator set 18) that
 * compute the same tensor. Shape arguments TensorFlow reads from constants (axes, permutations,
 * split sizes, strided-slice bounds) become attributes or int64 constants.
 */
import type { OnnxBuilder } from './onnx-builder.js';
import type { TfNode } from './tfjs-graph.js';

export type Translate = (node: TfNode, inputs: readonly string[], output: string, onnx: OnnxBuilder) => void;

/** Beyond any dimension: a slice bound that means "to the end". */
const TO_END = Number.MAX_SAFE_INTEGER;

/** TensorFlow's `DataType` numbers of the casts in the graph, as ONNX element types. */
const CAST_TO: Record<string, number> = {
  '1': 1,
  DT_FLOAT: 1,
  '3': 7,
  DT_INT32: 7,
  '9': 7,
  DT_INT64: 7,
  '10': 9,
  DT_BOOL: 9,
};

const same =
  (op: string): Translate =>
  (_node, inputs, output, onnx) =>
    onnx.emit(op, inputs, [output]);

const reduce =
  (op: string): Translate =>
  (node, [input, axes], output, onnx) =>
    onnx.emit(op, [input!, onnx.int64(node, onnx.ints(axes!))], [output], {
      keepdims: flag(node, 'keep_dims') ? 1 : 0,
      // TensorFlow reduces nothing over no axes; ONNX would reduce them all.
      noop_with_empty_axes: 1,
    });

/** `MatMul` (`transpose_a`/`_b`) and `BatchMatMul` (`adj_x`/`_y`, rank-4 operands) as a MatMul. */
const matMul =
  (a: string, b: string, swap: readonly number[]): Translate =>
  (node, [left, right], output, onnx) => {
    const operand = (input: string, transposed: boolean) =>
      transposed ? onnx.emit('Transpose', [input], [onnx.temp(node)], { perm: swap }) : input;
    onnx.emit('MatMul', [operand(left!, flag(node, a)), operand(right!, flag(node, b))], [output]);
  };

export const translations: Record<string, Translate> = {
  Add: same('Add'),
  AddV2: same('Add'),
  BiasAdd: (node, inputs, output, onnx) => {
    channelsLast(node);
    onnx.emit('Add', inputs, [output]);
  },
  Sub: same('Sub'),
  Mul: same('Mul'),
  RealDiv: same('Div'),
  Maximum: same('Max'),
  Less: same('Less'),
  Greater: same('Greater'),
  LogicalNot: same('Not'),
  Sin: same('Sin'),
  Cos: same('Cos'),
  Tanh: same('Tanh'),
  Relu: same('Relu'),
  Shape: same('Shape'),
  // A 0 in TensorFlow's shape is a dimension of size 0, not ONNX's "copy the input's".
  Reshape: (_node, inputs, output, onnx) => onnx.emit('Reshape', inputs, [output], { allowzero: 1 }),
  Range: same('Range'),
  GatherNd: same('GatherND'),
  Identity: same('Identity'),
  Square: (_node, [input], output, onnx) => onnx.emit('Mul', [input!, input!], [output]),
  Rsqrt: (node, [input], output, onnx) =>
    onnx.emit('Reciprocal', [onnx.emit('Sqrt', [input!], [onnx.temp(node)])], [output]),
  Softmax: (_node, inputs, output, onnx) => onnx.emit('Softmax', inputs, [output], { axis: -1 }),
  Cast: (node, [input], output, onnx) => {
    const to = CAST_TO[String(node.attr?.DstT?.type)];
    if (to === undefined)
      throw new Error(
        `${node.name} casts to type ${node.attr?.DstT?.type}, which the conversion does not map`,
      );
    onnx.emit('Cast', [input!], [output], { to });
  },
  // TensorFlow's Where of one input lists the true elements' coordinates, one row each.
  Where: (node, inputs, output, onnx) => {
    if (inputs.length !== 1)
      throw new Error(`${node.name} is a Where of ${inputs.length} inputs; only one is translated`);
    onnx.emit('Transpose', [onnx.emit('NonZero', inputs, [onnx.temp(node)])], [output], { perm: [1, 0] });
  },
  GatherV2: (node, [params, indices, axis], output, onnx) => {
    if (int(node, 'batch_dims'))
      throw new Error(`${node.name} gathers with batch_dims, which the conversion does not translate`);
    onnx.emit('Gather', [params!, indices!], [output], { axis: onnx.scalar(axis!) });
  },
  Max: reduce('ReduceMax'),
  Sum: reduce('ReduceSum'),
  Mean: reduce('ReduceMean'),
  Prod: reduce('ReduceProd'),
  ConcatV2: (_node, inputs, output, onnx) =>
    onnx.emit('Concat', inputs.slice(0, -1), [output], { axis: onnx.scalar(inputs.at(-1)!) }),
  ExpandDims: (node, [input, axis], output, onnx) =>
    onnx.emit('Unsqueeze', [input!, onnx.int64(node, [onnx.scalar(axis!)])], [output]),
  Squeeze: (node, [input], output, onnx) =>
    onnx.emit(
      'Squeeze',
      [input!, onnx.int64(node, (node.attr?.squeeze_dims?.list?.i ?? []).map(Number))],
      [output],
    ),
  Transpose: (_node, [input, perm], output, onnx) =>
    onnx.emit('Transpose', [input!], [output], { perm: onnx.ints(perm!) }),
  Pack: (node, inputs, output, onnx) => {
    const axis = int(node, 'axis');
    const axes = onnx.int64(node, [axis]);
    const parts = inputs.map((input) => onnx.emit('Unsqueeze', [input, axes], [onnx.temp(node)]));
    onnx.emit('Concat', parts, [output], { axis });
  },
  MatMul: matMul('transpose_a', 'transpose_b', [1, 0]),
  BatchMatMul: matMul('adj_x', 'adj_y', [0, 1, 3, 2]),
  BatchMatMulV2: matMul('adj_x', 'adj_y', [0, 1, 3, 2]),
  // A 1×1 convolution, stride 1, over NHWC: a MatMul of the last dimension by the kernel.
  Conv2D: (node, [input, kernel], output, onnx) => {
    channelsLast(node);
    const weights = onnx.constant(kernel!);
    const [height, width, inChannels, outChannels] = weights.dims;
    const strides = (node.attr?.strides?.list?.i ?? []).map(Number);
    if (height !== 1 || width !== 1 || strides.some((stride) => stride !== 1))
      throw new Error(
        `${node.name} is a ${height}×${width} convolution; only 1×1 ones of stride 1 are translated`,
      );
    const matrix = onnx.temp(node);
    onnx.keep(matrix, { ...weights, dims: [inChannels!, outChannels!] });
    onnx.emit('MatMul', [input!, matrix], [output]);
  },
  SplitV: (node, [input, sizes, axis], _output, onnx) => {
    const split = onnx.ints(sizes!);
    onnx.emit(
      'Split',
      [input!, onnx.int64(node, split)],
      split.map((_, index) => `${node.name}:${index}`),
      {
        axis: onnx.scalar(axis!),
      },
    );
  },
  // TensorFlow writes `values` at `indices` of a tensor of `shape` filled with `default`.
  SparseToDense: (node, [indices, shape, values, fill], output, onnx) =>
    onnx.emit(
      'ScatterND',
      [onnx.emit('Expand', [fill!, shape!], [onnx.temp(node)]), indices!, values!],
      [output],
    ),
  // Float updates scattered into zeros of `shape` (the graph scatters its activations back);
  // TensorFlow sums the updates of a repeated index.
  ScatterNd: (node, [indices, updates, shape], output, onnx) => {
    const zeros = onnx.emit('Expand', [onnx.float(node, [0], []), shape!], [onnx.temp(node)]);
    onnx.emit('ScatterND', [zeros, indices!, updates!], [output], { reduction: { string: 'add' } });
  },
  // TensorFlow's Slice takes a size per axis, -1 meaning "to the end"; ONNX's takes the ends.
  Slice: (node, [input, begin, size], output, onnx) => {
    const ends = onnx.emit('Add', [begin!, size!], [onnx.temp(node)]);
    const toEnd = onnx.emit('Less', [size!, onnx.int64(node, [0])], [onnx.temp(node)]);
    const bounded = onnx.emit('Where', [toEnd, onnx.int64(node, [TO_END]), ends], [onnx.temp(node)]);
    onnx.emit('Slice', [input!, begin!, bounded], [output]);
  },
  StridedSlice: (node, [input, beginAt, endAt, stridesAt], output, onnx) => {
    if (int(node, 'ellipsis_mask') || int(node, 'new_axis_mask'))
      throw new Error(
        `${node.name} uses an ellipsis or new-axis mask, which the conversion does not translate`,
      );
    const [begin, end, strides] = [onnx.ints(beginAt!), onnx.ints(endAt!), onnx.ints(stridesAt!)];
    const [beginMask, endMask, shrinkMask] = [
      int(node, 'begin_mask'),
      int(node, 'end_mask'),
      int(node, 'shrink_axis_mask'),
    ];
    const starts: number[] = [];
    const ends: number[] = [];
    const shrunk: number[] = [];
    begin.forEach((at, axis) => {
      const forward = strides[axis]! > 0;
      if ((shrinkMask >> axis) & 1) {
        if (!forward)
          throw new Error(
            `${node.name} shrinks axis ${axis} with a negative stride, which is not translated`,
          );
        // One element, the axis dropped: [at, at + 1), or [-1, end) for the last.
        starts.push(at);
        ends.push(at === -1 ? TO_END : at + 1);
        shrunk.push(axis);
        return;
      }
      // Masked bounds run to the axis' ends (ONNX clamps a backward start to the last element).
      starts.push((beginMask >> axis) & 1 ? (forward ? 0 : TO_END) : at);
      ends.push((endMask >> axis) & 1 ? (forward ? TO_END : -TO_END) : end[axis]!);
    });
    const axes = begin.map((_, axis) => axis);
    const sliced = onnx.emit(
      'Slice',
      [
        input!,
        onnx.int64(node, starts),
        onnx.int64(node, ends),
        onnx.int64(node, axes),
        onnx.int64(node, strides),
      ],
      [shrunk.length ? onnx.temp(node) : output],
    );
    if (shrunk.length) onnx.emit('Squeeze', [sliced, onnx.int64(node, shrunk)], [output]);
  },
};

/** Channels last (NHWC, TensorFlow's default), as the MatMul and Add translations assume. */
function channelsLast(node: TfNode): void {
  const format = node.attr?.data_format?.s;
  if (format !== undefined && Buffer.from(format, 'base64').toString() !== 'NHWC')
    throw new Error(`${node.name} is not channels last (NHWC), the only layout translated`);
}

function int(node: TfNode, name: string): number {
  return Number(node.attr?.[name]?.i ?? 0);
}

function flag(node: TfNode, name: string): boolean {
  return node.attr?.[name]?.b === true;
}
