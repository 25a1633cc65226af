import type { OnnxAttribute, OnnxNode, OnnxTensor } from './onnx-proto.js';
import type { TfConstant, TfNode } from './tfjs-graph.js';

/** What a translation sees of the graph being built. */
export class OnnxBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly #initializers = new Map<string, OnnxTensor>();
  readonly #constants: ReadonlyMap<string, TfConstant>;
  #fresh = 0;

  constructor(constants: ReadonlyMap<string, TfConstant>) {
    this.#constants = constants;
  }

  /** Adds a node; returns its first output. */
  emit(
    op: string,
    inputs: readonly string[],
    outputs: readonly string[],
    attributes?: Record<string, OnnxAttribute>,
  ): string {
    this.nodes.push({ op, inputs, outputs, ...(attributes ? { attributes } : {}) });
    return outputs[0]!;
  }

  /** A name for an intermediate tensor of `node`'s translation. */
  temp(node: TfNode): string {
    return `${node.name}/onnx_${this.#fresh++}`;
  }

  /** A new int64 constant of the given values (a 1-D tensor unless `dims` says otherwise). */
  int64(node: TfNode, values: readonly number[], dims: readonly number[] = [values.length]): string {
    return this.#constantFor(node, { type: 'int64', dims, data: BigInt64Array.from(values, BigInt) });
  }

  /** A new float constant. */
  float(node: TfNode, values: readonly number[], dims: readonly number[] = [values.length]): string {
    return this.#constantFor(node, { type: 'float', dims, data: Float32Array.from(values) });
  }

  /** The TensorFlow constant `tensor` names (`node:0`), or an error if it is computed. */
  constant(tensor: string): TfConstant {
    const found = this.#constants.get(tensor.replace(/:0$/, ''));
    if (!found)
      throw new Error(`${tensor} is computed, not a constant; the conversion needs it constant here`);
    return found;
  }

  /** The TensorFlow constant `tensor`'s values as numbers. */
  ints(tensor: string): number[] {
    return Array.from(this.constant(tensor).data, Number);
  }

  /** The TensorFlow constant `tensor`'s one value. */
  scalar(tensor: string): number {
    const values = this.ints(tensor);
    if (values.length !== 1) throw new Error(`${tensor} holds ${values.length} values; one was expected`);
    return values[0]!;
  }

  /** Keeps a TensorFlow constant as an initializer under the tensor name `name`. */
  keep(name: string, { type, dims, data }: TfConstant): void {
    this.#initializers.set(name, { name, type, dims, data });
  }

  #constantFor(node: TfNode, constant: TfConstant): string {
    const name = this.temp(node);
    this.keep(name, constant);
    return name;
  }

  /** The initializers some node reads (ONNX Runtime warns about the others). */
  initializersUsed(): OnnxTensor[] {
    const read = new Set(this.nodes.flatMap((node) => node.inputs));
    return [...this.#initializers.values()].filter((tensor) => read.has(tensor.name));
  }
}
