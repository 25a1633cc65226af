import { createInt8Kernel, type Int8Kernel } from './int8-kernel.js';

/**
 * Dense rows quantised to one signed byte per coordinate, with one scale per row, and for each row
 * the length of what the quantisation lost: enough to bound, for any unit direction, how far the
 * quantised dot product can be from the float32 one (see `QuantizedRows.candidatesNear`).
 */
export interface QuantizedRows {
  /** `count × stride` bytes, row-major: `round(x / scale)`, in [-127, 127]. */
  readonly values: Int8Array;
  /** Per row: `max |x| / 127` (0 for a zero row). */
  readonly scales: Float32Array;
  /** Per row: `‖x − values · scale‖₂`, rounded up. */
  readonly residuals: Float32Array;
  readonly stride: number;
  /** The SIMD kernel whose WebAssembly memory holds `values`, when there is one (`allocateQuantizedRows`). */
  readonly kernel?: Int8Kernel | undefined;
}

/**
 * Slack added to every error bound: the float32 kernel's own rounding (at most about `d · 2⁻²⁴` of
 * a unit dot product over `d ≤ 4096` coordinates) and the rounding of the stored residuals.
 */
const SLACK = 3e-4;

/** Quantises rows `[from, from + count)` of `rows` (`stride` floats each) into `out` at the same rows. */
export function quantizeRows(
  rows: Float32Array,
  stride: number,
  from: number,
  count: number,
  out: QuantizedRows,
): void {
  const { values, scales, residuals } = out;
  for (let row = from; row < from + count; row++) {
    const base = row * stride;
    let max = 0;
    for (let j = 0; j < stride; j++) {
      const magnitude = Math.abs(rows[base + j]!);
      if (magnitude > max) max = magnitude;
    }
    const scale = Math.fround(max / 127);
    let lost = 0;
    for (let j = 0; j < stride; j++) {
      const x = rows[base + j]!;
      const q = scale > 0 ? Math.max(-127, Math.min(127, Math.round(x / scale))) : 0;
      values[base + j] = q;
      const error = x - q * scale;
      lost += error * error;
    }
    scales[row] = scale;
    // Rounded up to float32 and a little over, so that the bound stays a bound.
    residuals[row] = Math.fround(Math.sqrt(lost) * (1 + 1e-6) + 1e-9);
  }
}

/**
 * Room for `count × stride` int8 values: in the WebAssembly memory of an int8 SIMD kernel when it
 * can hold them (then `candidatesNear` scores with it), else a plain array.
 */
export function allocateInt8Values(count: number, stride: number): Pick<QuantizedRows, 'values' | 'kernel'> {
  const kernel = createInt8Kernel(count, stride);
  return kernel ? { values: kernel.values, kernel } : { values: new Int8Array(count * stride) };
}

/** Room for `count` quantised rows of `stride` coordinates (the values as `allocateInt8Values`). */
export function allocateQuantizedRows(count: number, stride: number): QuantizedRows {
  return {
    ...allocateInt8Values(count, stride),
    scales: new Float32Array(count),
    residuals: new Float32Array(count),
    stride,
  };
}

/**
 * For the rows at `positions[0..length)`: the quantised dot product with `direction` (its first
 * `dimensions` coordinates) into `approximate[k]`, and a bound on its error into `bounds[k]`
 * (`‖residual‖ · ‖direction‖`, Cauchy–Schwarz, plus `SLACK`): the float32 value of row
 * `positions[k]` lies within `approximate[k] ± bounds[k]`.
 */
export function approximateRows(
  quantized: QuantizedRows,
  direction: Float32Array,
  dimensions: number,
  positions: Int32Array,
  length: number,
  approximate: Float64Array,
  bounds: Float64Array,
): void {
  const { values, scales, residuals, stride } = quantized;
  let norm = 0;
  for (let j = 0; j < dimensions; j++) norm += direction[j]! * direction[j]!;
  norm = Math.sqrt(norm);
  if (quantized.kernel && dimensions <= stride) {
    quantized.kernel.dots(
      direction.length > dimensions ? direction.subarray(0, dimensions) : direction,
      positions,
      length,
      approximate,
    );
    for (let k = 0; k < length; k++) {
      const row = positions[k]!;
      approximate[k] = approximate[k]! * scales[row]!;
      bounds[k] = residuals[row]! * norm + SLACK;
    }
    return;
  }
  for (let k = 0; k < length; k++) {
    const row = positions[k]!;
    const base = row * stride;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let j = 0;
    for (; j + 4 <= dimensions; j += 4) {
      s0 += values[base + j]! * direction[j]!;
      s1 += values[base + j + 1]! * direction[j + 1]!;
      s2 += values[base + j + 2]! * direction[j + 2]!;
      s3 += values[base + j + 3]! * direction[j + 3]!;
    }
    for (; j < dimensions; j++) s0 += values[base + j]! * direction[j]!;
    approximate[k] = (s0 + s1 + (s2 + s3)) * scales[row]!;
    bounds[k] = residuals[row]! * norm + SLACK;
  }
}

/**
 * Of the rows at `positions[0..length)` (ascending) whose position is outside `[skipFrom, skipTo)`,
 * those that can hold the largest float32 value, given `approximateRows`' values and bounds: a row
 * is kept when its upper bound reaches the largest lower bound. Writes the kept positions, still
 * ascending, to `kept` and returns how many. Rows whose exact value could tie the best are kept
 * too, so the first position of the exact maximum is always among them.
 */
export function keepNear(
  positions: Int32Array,
  length: number,
  approximate: Float64Array,
  bounds: Float64Array,
  skipFrom: number,
  skipTo: number,
  kept: Int32Array,
): number {
  let floor = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < length; k++) {
    const position = positions[k]!;
    if (position >= skipFrom && position < skipTo) continue;
    if (approximate[k]! - bounds[k]! > floor) floor = approximate[k]! - bounds[k]!;
  }
  let count = 0;
  for (let k = 0; k < length; k++) {
    const position = positions[k]!;
    if (position >= skipFrom && position < skipTo) continue;
    if (approximate[k]! + bounds[k]! >= floor) kept[count++] = position;
  }
  return count;
}

/**
 * Of the rows at `positions[0..length)` (ascending), those that can hold the largest float32 dot
 * product with the unit `direction` (`approximateRows`, then `keepNear`). Writes the kept positions,
 * still ascending, to `positions[0..kept)` and returns `kept`.
 */
export function candidatesNear(
  quantized: QuantizedRows,
  direction: Float32Array,
  dimensions: number,
  positions: Int32Array,
  length: number,
  approximate: Float64Array,
  bounds: Float64Array,
): number {
  approximateRows(quantized, direction, dimensions, positions, length, approximate, bounds);
  return keepNear(positions, length, approximate, bounds, 0, 0, positions);
}
