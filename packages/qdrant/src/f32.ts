/**
 * Qdrant stores vectors and scores as 32-bit floats. These helpers write a float32 as the shortest
 * decimal that reads back as the same float32 (as Qdrant's own JSON output does), so request bodies
 * say `0.9` rather than `0.8999999761581421`.
 */

const view = new DataView(new ArrayBuffer(4));

/** The shortest decimal number that rounds to the same float32 as `value`. */
export function shortestF32(value: number): number {
  const target = Math.fround(value);
  if (!Number.isFinite(target) || target === 0) return target;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(target.toPrecision(digits));
    if (Math.fround(candidate) === target) return candidate;
  }
  return target;
}

/** The largest float32 strictly below `value` (as a float32), in shortest form. */
export function f32Below(value: number): number {
  const target = Math.fround(value);
  if (Number.isNaN(target) || target === Number.NEGATIVE_INFINITY) return target;
  if (target === 0) {
    view.setUint32(0, 0x80000001);
    return shortestF32(view.getFloat32(0));
  }
  view.setFloat32(0, target);
  const bits = view.getUint32(0);
  view.setUint32(0, target > 0 ? bits - 1 : bits + 1);
  return shortestF32(view.getFloat32(0));
}
