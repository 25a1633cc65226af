import { describe, expect, test } from 'vitest';
import { fitSettings, type ProxyRefinement } from './fit-settings.js';
import { gaussian, toSparse } from './linear-algebra.js';
import { dotsKernel, Pool, toCsr } from './parallel.js';
import { projectVectors } from './project-vectors.js';
import { type RefinementInput, refineByProxies } from './proxy-refinement.js';

/** n rows of r dimensions in k classes: class centres plus noise, centred; residuals and means as `classScatter` gives them. */
function problem(n: number, r: number, k: number, noise: number, seed: number) {
  const random = gaussian(seed);
  const centres = Array.from({ length: k }, () => Array.from({ length: r }, () => random()));
  const labels = Array.from({ length: n }, (_, i) => i % k);
  const rows = labels.map((c) => centres[c]!.map((value) => value + noise * random()));
  const total = new Float64Array(r);
  for (const row of rows) for (let a = 0; a < r; a++) total[a]! += row[a]! / n;
  const means = new Float64Array(k * r);
  rows.forEach((row, i) => {
    for (let a = 0; a < r; a++) means[labels[i]! * r + a]! += (row[a]! - total[a]!) / (n / k);
  });
  const residuals = new Float64Array(n * r);
  rows.forEach((row, i) => {
    for (let a = 0; a < r; a++) residuals[i * r + a] = row[a]! - total[a]! - means[labels[i]! * r + a]!;
  });
  return { residuals, means, labels, n, r, k };
}

function randomMap(r: number, out: number, seed: number) {
  const random = gaussian(seed);
  return Float64Array.from({ length: r * out }, () => random());
}

/** A row's coordinates (residual + class mean) through `map`, unit length. */
function fitted(p: ReturnType<typeof problem>, map: Float64Array, out: number, i: number) {
  const y = new Float64Array(out);
  for (let a = 0; a < p.r; a++) {
    const x = p.residuals[i * p.r + a]! + p.means[p.labels[i]! * p.r + a]!;
    for (let o = 0; o < out; o++) y[o]! += x * map[a * out + o]!;
  }
  const length = Math.hypot(...y);
  return y.map((v) => v / length);
}

/** The class means through `map`, unit length: the proxies the refinement starts from. */
function startProxies(p: ReturnType<typeof problem>, map: Float64Array, out: number) {
  return Array.from({ length: p.k }, (_, c) => {
    const y = new Float64Array(out);
    for (let a = 0; a < p.r; a++)
      for (let o = 0; o < out; o++) y[o]! += p.means[c * p.r + a]! * map[a * out + o]!;
    const length = Math.hypot(...y);
    return y.map((v) => v / length);
  });
}

/** The loss the refinement descends, the proxies held: mean cross-entropy of scale × cosine. */
function loss(
  p: ReturnType<typeof problem>,
  map: Float64Array,
  out: number,
  proxies: Float64Array[],
  scale: number,
) {
  let sum = 0;
  for (let i = 0; i < p.n; i++) {
    const z = fitted(p, map, out, i);
    const logits = proxies.map((q) => scale * q.reduce((s, v, o) => s + v * z[o]!, 0));
    const largest = Math.max(...logits);
    const total = logits.reduce((s, l) => s + Math.exp(l - largest), 0);
    sum += -(logits[p.labels[i]!]! - largest - Math.log(total));
  }
  return sum / p.n;
}

/** Share of rows whose nearest class mean by cosine, through `map`, is their own class. */
function nearestRight(p: ReturnType<typeof problem>, map: Float64Array, out: number) {
  const proxies = startProxies(p, map, out);
  let right = 0;
  for (let i = 0; i < p.n; i++) {
    const z = fitted(p, map, out, i);
    const scores = proxies.map((q) => q.reduce((s, v, o) => s + v * z[o]!, 0));
    if (scores.indexOf(Math.max(...scores)) === p.labels[i]) right++;
  }
  return right / p.n;
}

async function refine(
  p: ReturnType<typeof problem>,
  map: Float64Array,
  out: number,
  settings: ProxyRefinement,
  threads = 1,
  extra: Partial<RefinementInput> = {},
) {
  const pool = new Pool(threads);
  try {
    return await refineByProxies({ ...p, map, out, settings, seed: 1, pool, ...extra });
  } finally {
    await pool.close();
  }
}

describe('dotsKernel: out = A·Bᵀ by rows', () => {
  test('has no nested function: its source runs in the workers as it is (tsx wraps one in a `__name` helper they lack)', () => {
    const source = dotsKernel.toString().replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
    const body = source.slice(source.indexOf('{'));
    expect(body).not.toMatch(/=>|\bfunction\b/);
  });

  test('equals the plain product, with rows and columns that are not multiples of four', () => {
    const random = gaussian(3);
    const [rows, cols, len] = [7, 6, 5];
    const a = Float64Array.from({ length: rows * len }, () => random());
    const b = Float64Array.from({ length: cols * len }, () => random());
    const out = new Float64Array(rows * cols).fill(Number.NaN);
    dotsKernel(a, b, len, cols, out, 0, 3);
    dotsKernel(a, b, len, cols, out, 3, rows);
    for (let i = 0; i < rows; i++)
      for (let j = 0; j < cols; j++) {
        let sum = 0;
        for (let p = 0; p < len; p++) sum += a[i * len + p]! * b[j * len + p]!;
        expect(out[i * cols + j]).toBeCloseTo(sum, 12);
      }
  });
});

describe('refineByProxies: the LDA map sharpened on the chunks', () => {
  test('its first step goes down the loss: each weight moves against the sign of its gradient (finite differences)', async () => {
    const p = problem(60, 6, 3, 1.2, 5);
    const out = 2;
    const map = randomMap(p.r, out, 9);
    const scale = 12;
    // One full-batch Adam step: each weight moves by the step size against its gradient's sign.
    const moved = await refine(p, map, out, { scale, epochs: 1, batch: p.n, learningRate: 1e-3 });
    const proxies = startProxies(p, map, out);
    let checked = 0;
    for (let w = 0; w < map.length; w++) {
      const h = 1e-6;
      const up = Float64Array.from(map);
      const down = Float64Array.from(map);
      up[w]! += h;
      down[w]! -= h;
      const gradient = (loss(p, up, out, proxies, scale) - loss(p, down, out, proxies, scale)) / (2 * h);
      if (Math.abs(gradient) < 1e-4) continue;
      checked++;
      expect(Math.sign(moved[w]! - map[w]!)).toBe(-Math.sign(gradient));
    }
    expect(checked).toBeGreaterThan(6);
  });

  test('more chunks nearest their own class mean than with the map it started from', async () => {
    const p = problem(600, 24, 12, 1.6, 7);
    const out = 8;
    const map = randomMap(p.r, out, 2);
    const before = nearestRight(p, map, out);
    const after = nearestRight(
      p,
      await refine(p, map, out, { scale: 12, epochs: 20, batch: 64, learningRate: 0.1 }),
      out,
    );
    expect(before).toBeLessThan(0.9);
    expect(after).toBeGreaterThan(before + 0.05);
  });

  test('reproducible: the same map twice, and with two threads the same within rounding', async () => {
    const p = problem(300, 16, 6, 1, 4);
    const map = randomMap(p.r, 5, 3);
    const settings = { scale: 12, epochs: 2, batch: 50, learningRate: 0.1 };
    const one = await refine(p, map, 5, settings);
    expect(await refine(p, map, 5, settings)).toEqual(one);
    const two = await refine(p, map, 5, settings, 2);
    for (let i = 0; i < one.length; i++) expect(two[i]).toBeCloseTo(one[i]!, 9);
  });

  test('0 epochs leave the map as it was; an aborted fit stops', async () => {
    const p = problem(40, 4, 2, 1, 1);
    const map = randomMap(p.r, 1, 1);
    expect(await refine(p, map, 1, { scale: 12, epochs: 0, batch: 8, learningRate: 0.1 })).toEqual(map);
    const controller = new AbortController();
    controller.abort();
    await expect(
      refine(p, map, 1, { scale: 12, epochs: 1, batch: 8, learningRate: 0.1 }, 1, {
        signal: controller.signal,
      }),
    ).rejects.toThrow();
  });
});

describe('FitOptions.refine', () => {
  test('is part of the settings (and so of the key a fit is cached under) only when asked; bad values are refused', () => {
    const refine = { scale: 12, epochs: 3, batch: 512, learningRate: 0.1 };
    expect(fitSettings({ refine }).refine).toEqual(refine);
    expect(fitSettings({})).not.toHaveProperty('refine');
    expect(fitSettings({ refine: false })).not.toHaveProperty('refine');
    for (const bad of [{ scale: 0 }, { epochs: 1.5 }, { batch: 0 }, { learningRate: -1 }])
      expect(() => fitSettings({ refine: { ...refine, ...bad } })).toThrow(/refine needs a positive scale/);
  });

  test('a fit with it differs from the LDA alone, and the map still projects every chunk', async () => {
    const p = problem(240, 12, 6, 1.4, 8);
    const dense = Array.from({ length: p.n }, (_, i) =>
      Array.from({ length: p.r }, (_, a) => p.residuals[i * p.r + a]! + p.means[p.labels[i]! * p.r + a]!),
    );
    const mean = new Float64Array(p.r);
    const input = {
      csr: toCsr(dense.map((row) => toSparse(row))),
      mean,
      d: p.r,
      labels: p.labels,
      classes: p.k,
      threads: 1,
    };
    const ldaSteps: string[] = [];
    const lda = await projectVectors({ ...input, settings: fitSettings({ pcaDimensions: 12 }) }, (phase) =>
      ldaSteps.push(phase),
    );
    const steps: string[] = [];
    const refined = await projectVectors(
      {
        ...input,
        settings: fitSettings({
          pcaDimensions: 12,
          refine: { scale: 12, epochs: 4, batch: 32, learningRate: 0.1 },
        }),
      },
      (phase) => steps.push(phase),
    );
    expect(refined.outputDimensions).toBe(lda.outputDimensions);
    expect(refined.matrix).not.toEqual(lda.matrix);
    expect(refined.matrix.every(Number.isFinite)).toBe(true);
    // One progress step more per pass over the chunks.
    expect(steps.length).toBe(ldaSteps.length + 4);
  });
});
