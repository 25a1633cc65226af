import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder, InMemoryEmbeddingCache, TreeAgent } from '@treeagent/core';
import { countEnglish, type Embedder, isEnglishTree } from '@treeagent/core/adapter';
import { afterEach, describe, expect, test } from 'vitest';
import {
  chooseFitBase,
  STUDENT_BASE_CALIBRATION_KEEP,
  STUDENT_BASE_WEIGHT,
  USE_BASE_CALIBRATION_KEEP,
  USE_BASE_WEIGHT,
  USE_HASHED_PCA_DIMENSIONS,
  USE_PROXY_REFINEMENT,
  USE_REFINED_CALIBRATION_KEEP,
  USE_REFINED_CALIBRATION_SAMPLES,
  USE_WHOLE_PART_CALIBRATION_KEEP,
  type UseImporter,
} from './fit-base.js';
import { fitSettings, type ProxyRefinement } from './fit-settings.js';
import type { FittedEmbedder } from './fitted-embedder.js';
import type { TransformersImporter } from './multilingual-base.js';
import type { Projection } from './projection.js';
import { MODEL_MANIFEST } from './pulled-models.js';
import {
  askedCalibration,
  DEFAULT_FITTED_CALIBRATION_KEEP,
  fittedCalibration,
  spaceFitter,
} from './space-fitter.js';
import { englishIntentTree, italianIntentTree } from './test-support/intent-trees.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** Test double for `@treeagent/embedder-use`: a fixed-size embedder of the hashed family, no model. */
class FakeUse implements Embedder {
  readonly id: string = 'fake-use';
  readonly dimensions = 64;
  readonly #inner = new HashedEmbedder({ dimensions: 64 });
  embed(texts: readonly string[]) {
    return this.#inner.embed(texts);
  }
}
const fakeUse: UseImporter = async () => ({ UseEmbedder: FakeUse });
/** Test double for the package with its student (`UseStudentEmbedder`). */
class FakeStudent extends FakeUse {
  override readonly id = 'fake-student';
}
const fakeUseWithStudent: UseImporter = async () => ({
  UseEmbedder: FakeUse,
  UseStudentEmbedder: FakeStudent,
});
/** What Node's import throws when the package is not installed. */
const notInstalled: UseImporter = () =>
  Promise.reject(
    Object.assign(
      new Error("Cannot find package '@treeagent/embedder-use' imported from /app/node_modules"),
      {
        code: 'ERR_MODULE_NOT_FOUND',
      },
    ),
  );
const broken: UseImporter = () => Promise.reject(new Error('Unexpected token in tfjs bundle'));

describe('the language of a tree', () => {
  test('English, Italian and chunks without function words', () => {
    expect(countEnglish(['what is my balance', 'how do i pay my bill', 'pto balance'])).toEqual({
      chunks: 3,
      decided: 2,
      english: 2,
    });
    expect(countEnglish(['qual è il saldo del mio conto', 'voglio fare un bonifico'])).toEqual({
      chunks: 2,
      decided: 2,
      english: 0,
    });
    // A word two languages share ("a", "in", "no") decides nothing: Italian with one of them stays Italian.
    expect(countEnglish(['vorrei andare a casa in bici'])).toMatchObject({ decided: 1, english: 0 });
    expect(isEnglishTree(englishIntentTree())).toMatchObject({ chunks: 128, isEnglish: true });
    expect(isEnglishTree(italianIntentTree())).toMatchObject({ chunks: 128, isEnglish: false, english: 0 });
  });
});

describe("chooseFitBase: what the fit is made over ('auto')", () => {
  const hashed = new HashedEmbedder();

  test('an English tree on the default embedder: USE-lite + hashed 2:1, with its own settings', async () => {
    const chosen = await chooseFitBase('auto', englishIntentTree(), hashed, true, fakeUse);
    expect(chosen.embedder.id).toBe(`concat(fake-use*2,${hashed.id}*1)`);
    expect(chosen.isAgents).toBe(false);
    expect(chosen.reason).toBe(
      'USE-lite + hashed n-grams 2:1 (English tree: 100% of the 128 chunks with function words)',
    );
    expect(chosen.settings).toEqual({
      baseWeight: USE_BASE_WEIGHT,
      calibrationKeep: USE_BASE_CALIBRATION_KEEP,
      // USE-lite's dimensions kept whole beside a PCA of the hashed part, with that space's keep.
      wholePart: {
        dimensions: 64,
        pcaOfRest: USE_HASHED_PCA_DIMENSIONS,
        calibrationKeep: USE_WHOLE_PART_CALIBRATION_KEEP,
        // …and the LDA's map refined on the chunks in that space, with the calibration then.
        refine: {
          ...USE_PROXY_REFINEMENT,
          calibrationKeep: USE_REFINED_CALIBRATION_KEEP,
          calibrationSamples: USE_REFINED_CALIBRATION_SAMPLES,
        },
      },
    });
  });

  test('the agent’s embedder otherwise, and the reason says why', async () => {
    const italian = await chooseFitBase('auto', italianIntentTree(), hashed, true, fakeUse);
    expect(italian).toMatchObject({ embedder: hashed, isAgents: true });
    expect(italian.reason).toMatch(
      /^hashed n-grams \(0% of the \d+ chunks with function words in English: not an English tree; no models directory\)$/,
    );

    const missing = await chooseFitBase('auto', englishIntentTree(), hashed, true, notInstalled);
    expect(missing).toMatchObject({ embedder: hashed, isAgents: true });
    expect(missing.reason).toContain('npm install @treeagent/embedder-use');
    // Installed but broken is not "not installed".
    const failing = await chooseFitBase('auto', englishIntentTree(), hashed, true, broken);
    expect(failing.reason).toContain(
      '@treeagent/embedder-use failed to load (Unexpected token in tfjs bundle)',
    );

    // An embedder the user chose is never replaced, nor with base: 'agent'.
    expect(await chooseFitBase('auto', englishIntentTree(), hashed, false, fakeUse)).toEqual({
      embedder: hashed,
      isAgents: true,
    });
    expect(await chooseFitBase('agent', englishIntentTree(), hashed, true, fakeUse)).toEqual({
      embedder: hashed,
      isAgents: true,
    });
  });
});

describe("chooseFitBase: the USE-lite student, opted in ('use-student')", () => {
  const hashed = new HashedEmbedder();

  test('an English tree: the student + hashed 2:1, with its own settings; the rest as with auto', async () => {
    const chosen = await chooseFitBase('use-student', englishIntentTree(), hashed, true, fakeUseWithStudent);
    expect(chosen.embedder.id).toBe(`concat(fake-student*2,${hashed.id}*1)`);
    expect(chosen.reason).toBe(
      'USE-lite student + hashed n-grams 2:1 (English tree: 100% of the 128 chunks with function words)',
    );
    expect(chosen.settings).toEqual({
      baseWeight: STUDENT_BASE_WEIGHT,
      calibrationKeep: STUDENT_BASE_CALIBRATION_KEEP,
    });
    // 'auto' keeps USE-lite; an Italian tree or an embedder the user chose are as with 'auto'.
    expect(
      (await chooseFitBase('auto', englishIntentTree(), hashed, true, fakeUseWithStudent)).embedder.id,
    ).toBe(`concat(fake-use*2,${hashed.id}*1)`);
    const italian = await chooseFitBase(
      'use-student',
      italianIntentTree(),
      new HashedEmbedder({ language: 'it' }),
      true,
      fakeUseWithStudent,
    );
    expect(italian.isAgents).toBe(true);
    expect(
      await chooseFitBase('use-student', englishIntentTree(), hashed, false, fakeUseWithStudent),
    ).toEqual({
      embedder: hashed,
      isAgents: true,
    });
  });

  test('a package without the student, or none: the hashed base, and why', async () => {
    const old = await chooseFitBase('use-student', englishIntentTree(), hashed, true, fakeUse);
    expect(old).toMatchObject({ embedder: hashed, isAgents: true });
    expect(old.reason).toContain('the installed @treeagent/embedder-use has no USE-lite student: update it');
    const missing = await chooseFitBase('use-student', englishIntentTree(), hashed, true, notInstalled);
    expect(missing.reason).toContain('npm install @treeagent/embedder-use');
  });
});

describe("chooseFitBase: a tree not in English ('auto') and the models pulled", () => {
  const hashed = new HashedEmbedder({ language: 'it' });
  /** Test double for `@treeagent/embedder-transformers`: records the model folder it was given. */
  const opened: { modelPath: string; quantized?: boolean }[] = [];
  class FakeTransformers extends FakeUse {
    override readonly id = 'fake-multilingual';
    constructor(options: { modelPath: string; quantized?: boolean }) {
      super();
      opened.push(options);
    }
  }
  const fakeTransformers: TransformersImporter = async () => ({ TransformersEmbedder: FakeTransformers });
  const modelsWith = (models: { name: string; multilingual: boolean }[]) => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-models-'));
    directories.push(directory);
    for (const { name, multilingual } of models) {
      const folder = join(directory, ...name.split('/'));
      mkdirSync(folder, { recursive: true });
      const manifest = { name, hub: 'http://hub', revision: 'main', onnx: 'onnx/model_quantized.onnx' };
      writeFileSync(
        join(folder, MODEL_MANIFEST),
        JSON.stringify({ ...manifest, quantized: true, multilingual, files: [] }),
      );
    }
    // A download under way is not a model.
    mkdirSync(join(directory, 'aaa', 'half-pulled.partial'), { recursive: true });
    return directory;
  };

  test('a pulled multilingual model + hashed 2:1 is the base of an Italian tree', async () => {
    const directory = modelsWith([
      { name: 'acme/english-only', multilingual: false },
      { name: 'Xenova/paraphrase-multilingual-MiniLM-L12-v2', multilingual: true },
    ]);
    const chosen = await chooseFitBase('auto', italianIntentTree(), hashed, true, fakeUse, {
      directory,
      importer: fakeTransformers,
    });
    expect(chosen.embedder.id).toBe(`concat(fake-multilingual*2,${hashed.id}*1)`);
    expect(chosen.isAgents).toBe(false);
    expect(chosen.reason).toMatch(
      /^Xenova\/paraphrase-multilingual-MiniLM-L12-v2 \(pulled, multilingual\) \+ hashed/,
    );
    expect(opened.at(-1)).toMatchObject({
      modelPath: join(directory, 'Xenova', 'paraphrase-multilingual-MiniLM-L12-v2'),
      quantized: true,
    });
    // The pulled model is the costly part: a large tree gets an interim fit over hashed meanwhile.
    expect(chosen.costly).toMatchObject({ interim: 'agent', interimByDefault: true });
    expect(chosen.costly?.part.id).toBe('fake-multilingual');
    // An English tree keeps USE-lite.
    const english = await chooseFitBase('auto', englishIntentTree(), new HashedEmbedder(), true, fakeUse, {
      directory,
      importer: fakeTransformers,
    });
    expect(english.embedder.id).toContain('fake-use');
    // USE-lite embeds fast enough that an interim fit is only made when asked for.
    expect(english.costly).toMatchObject({ interim: 'use-student', interimByDefault: false });
    expect(english.costly?.part.id).toBe('fake-use');
  });

  test('without a multilingual model pulled, or without the package to run it, the hashed base and why', async () => {
    const none = await chooseFitBase('auto', italianIntentTree(), hashed, true, fakeUse, {
      directory: modelsWith([{ name: 'acme/english-only', multilingual: false }]),
      importer: fakeTransformers,
    });
    expect(none).toMatchObject({ embedder: hashed, isAgents: true });
    expect(none.reason).toMatch(/no multilingual model pulled \(treeagent models pull/);
    const missing = await chooseFitBase('auto', italianIntentTree(), hashed, true, fakeUse, {
      directory: modelsWith([{ name: 'acme/multilingual-e5', multilingual: true }]),
      importer: () =>
        Promise.reject(
          Object.assign(new Error("Cannot find package '@treeagent/embedder-transformers'"), {
            code: 'ERR_MODULE_NOT_FOUND',
          }),
        ),
    });
    expect(missing).toMatchObject({ embedder: hashed, isAgents: true });
    expect(missing.reason).toContain('npm install @treeagent/embedder-transformers');
  });
});

describe('the agent fits an English tree over USE-lite + hashed', () => {
  test('spaceFitter() with @treeagent/embedder-use installed: the real model, visible everywhere, cached', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-fit-base-'));
    directories.push(directory);
    const lines: string[] = [];
    const embeddingCache = new InMemoryEmbeddingCache();
    const options = {
      tree: englishIntentTree(),
      embeddingCache,
      spaceFitter: spaceFitter({ cacheDirectory: directory }),
      log: (_level: string, message: string) => lines.push(message),
    };
    const agent = new TreeAgent(options);
    const status = await agent.whenFitted();
    expect(status).toMatchObject({
      state: 'fitted',
      cached: false,
      baseId: `concat(use-lite-en@0.2.0*2,${new HashedEmbedder().id}*1)`,
      base: 'USE-lite + hashed n-grams 2:1 (English tree: 100% of the 128 chunks with function words)',
    });
    expect(status.embedderId).toMatch(/^fitted\(concat\(use-lite-en@0\.2\.0\*2,.*base\*0\.25\)$/);
    expect(lines.join('\n')).toContain('; over USE-lite + hashed n-grams 2:1 (English tree');
    // Paraphrases that share no content word with the chunks: the neural part of the base finds them
    // (every node descending: this templated tree's calibrated thresholds are near 1).
    const open = { thresholds: 0 };
    const routed = async (text: string) => (await agent.route(text, open)).node.name;
    expect(await routed('umbrella needed today?')).toBe('weather');
    expect(await routed('how rich am i')).toBe('balance');
    expect(await routed('an omelette')).toBe('recipe');
    const output = await agent.send('s1', 'can you tell me the weather for tomorrow');
    expect(output.messages[0]?.content).toBe('weather');

    // A restart reads the fit with the same base: no refit.
    const again = new TreeAgent(options);
    await again.ready();
    expect(again.space()).toMatchObject({ state: 'fitted', cached: true, embedderId: status.embedderId });
  });

  test("spaceFitter({ base: 'use-student' }): the real student + hashed, its own key and settings, read back on a restart", async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-fit-student-'));
    directories.push(directory);
    const options = {
      tree: englishIntentTree(),
      embeddingCache: new InMemoryEmbeddingCache(),
      spaceFitter: spaceFitter({ cacheDirectory: directory, base: 'use-student' }),
    };
    const agent = new TreeAgent(options);
    const status = await agent.whenFitted();
    expect(status).toMatchObject({
      state: 'fitted',
      cached: false,
      baseId: `concat(use-lite-student-en@1*2,${new HashedEmbedder().id}*1)`,
      base: 'USE-lite student + hashed n-grams 2:1 (English tree: 100% of the 128 chunks with function words)',
    });
    const open = { thresholds: 0 };
    expect((await agent.route('umbrella needed today?', open)).node.name).toBe('weather');
    const again = new TreeAgent(options);
    await again.ready();
    expect(again.space()).toMatchObject({ state: 'fitted', cached: true, embedderId: status.embedderId });
    // The same data directory with the 'auto' base (USE-lite): the student's fit is not used.
    const auto = new TreeAgent({ ...options, spaceFitter: spaceFitter({ cacheDirectory: directory }) });
    expect(await auto.whenFitted()).toMatchObject({ state: 'fitted', cached: false });
  });

  test('the USE-lite base asks for its own calibration keep; the options win', async () => {
    const request = {
      tree: englishIntentTree(),
      base: new HashedEmbedder(),
      baseIsDefault: true,
      embeddingCache: new InMemoryEmbeddingCache(),
      signal: new AbortController().signal,
    };
    const auto = await spaceFitter({ worker: false }).fit(request);
    // 128 chunks are too few to keep USE-lite's 512 dimensions whole: the one PCA, and its keep.
    expect(auto.detail).toMatch(/^exact PCA, \d+ dimensions/);
    // …and the settings (the key its fit is cached and shipped under) are the one PCA's, as before.
    expect((auto.embedder as FittedEmbedder).projection.settings).not.toHaveProperty('wholePart');
    expect(auto.calibration).toEqual({ keep: USE_BASE_CALIBRATION_KEEP });
    expect(auto.baseId).toBe(`concat(use-lite-en@0.2.0*2,${request.base.id}*1)`);
    const given = await spaceFitter({ worker: false, calibrationKeep: 0.9 }).fit(request);
    expect(given.calibration).toEqual({ keep: 0.9 });
    const agents = await spaceFitter({ worker: false, base: 'agent' }).fit(request);
    expect(agents.calibration).toEqual({ keep: DEFAULT_FITTED_CALIBRATION_KEEP });
    expect(agents.baseId).toBe(request.base.id);
  });

  test('an Italian tree stays on the hashed base (analysing Italian words), and agent.space() says why', async () => {
    const agent = new TreeAgent({ tree: italianIntentTree(), spaceFitter: spaceFitter() });
    const status = await agent.whenFitted();
    expect(status).toMatchObject({ state: 'fitted', baseId: new HashedEmbedder({ language: 'it' }).id });
    expect(status.state === 'fitted' && status.base).toMatch(/not an English tree/);
  });
});

describe('askedCalibration: the calibration a base asks for, by how its fit was made', () => {
  const chosen = {
    embedder: new HashedEmbedder(),
    isAgents: false,
    settings: {
      baseWeight: USE_BASE_WEIGHT,
      calibrationKeep: USE_BASE_CALIBRATION_KEEP,
      wholePart: {
        dimensions: 512,
        pcaOfRest: 256,
        calibrationKeep: USE_WHOLE_PART_CALIBRATION_KEEP,
        refine: {
          ...USE_PROXY_REFINEMENT,
          calibrationKeep: USE_REFINED_CALIBRATION_KEEP,
          calibrationSamples: USE_REFINED_CALIBRATION_SAMPLES,
        },
      },
    },
  };
  const fitted = (pca: Projection['pca'], refine?: ProxyRefinement) =>
    ({ pca, settings: fitSettings(refine ? { refine } : {}) }) as Projection;

  test("the whole part's keep when the fit kept the part whole, the base's own when the tree was too small", () => {
    expect(askedCalibration(chosen, fitted({ method: 'randomised', dimensions: 768, whole: 512 }))).toEqual({
      keep: USE_WHOLE_PART_CALIBRATION_KEEP,
    });
    expect(askedCalibration(chosen, fitted({ method: 'exact', dimensions: 64 }))).toEqual({
      keep: USE_BASE_CALIBRATION_KEEP,
    });
    // A map refined on the chunks (the base asks for it with the whole part): the refined space's
    // keep, over 512 samples per node.
    const whole = { method: 'randomised', dimensions: 768, whole: 512 } as const;
    expect(askedCalibration(chosen, fitted(whole, USE_PROXY_REFINEMENT))).toEqual({
      keep: USE_REFINED_CALIBRATION_KEEP,
      samplesPerNode: 512,
    });
    expect(
      askedCalibration({ ...chosen, settings: undefined }, fitted({ method: 'exact', dimensions: 64 })),
    ).toEqual({});
    // The fitted space's calibration: the fitter's keep wins, the samples per node stay the space's.
    expect(fittedCalibration(chosen, fitted(whole, USE_PROXY_REFINEMENT))).toEqual({
      keep: USE_REFINED_CALIBRATION_KEEP,
      samplesPerNode: USE_REFINED_CALIBRATION_SAMPLES,
    });
    expect(fittedCalibration(chosen, fitted(whole, USE_PROXY_REFINEMENT), 0.95)).toEqual({
      keep: 0.95,
      samplesPerNode: USE_REFINED_CALIBRATION_SAMPLES,
    });
    expect(fittedCalibration({ ...chosen, settings: undefined }, fitted(whole))).toEqual({
      keep: DEFAULT_FITTED_CALIBRATION_KEEP,
    });
  });
});
