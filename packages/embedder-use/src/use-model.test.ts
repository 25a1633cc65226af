import { describe, expect, test } from 'vitest';
import { loadUseModel } from './use-model.js';

// An ONNX Runtime that cannot load here (no onnxruntime-node build for the platform, not installed).
const unavailable = async () => {
  throw new Error("Cannot find module 'onnxruntime-node'");
};

describe('loadUseModel: which runtime computes USE-lite', () => {
  test("'auto' falls back to TensorFlow.js where ONNX Runtime cannot load, with one warning that says why", async () => {
    const warnings: Error[] = [];
    const listen = (warning: Error) => warnings.push(warning);
    process.on('warning', listen);
    try {
      const model = await loadUseModel('auto', unavailable);
      expect(model.runtime).toBe('tfjs');
      const rows = await model.embed(['my card was stolen']);
      expect(rows).toHaveLength(512);
      await model.release();
      await loadUseModel('auto', unavailable).then((again) => again.release());
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.message)).toEqual([
        expect.stringContaining(
          "USE-lite runs on TensorFlow.js, about 4 times the CPU per text: ONNX Runtime could not load it here (Cannot find module 'onnxruntime-node')",
        ),
      ]);
    } finally {
      process.off('warning', listen);
    }
  });

  test("'onnx' does not fall back: the error says what failed and which runtimes would run it", async () => {
    await expect(loadUseModel('onnx', unavailable)).rejects.toThrow(
      "Cannot find module 'onnxruntime-node' (on ONNX Runtime: runtime 'auto', the default, or 'tfjs' runs USE-lite on TensorFlow.js instead)",
    );
  });

  test("'auto' runs ONNX Runtime where it loads", async () => {
    const model = await loadUseModel('auto');
    try {
      expect(model.runtime).toBe('onnx');
      expect(await model.embed(['hello'])).toHaveLength(512);
    } finally {
      await model.release();
    }
  });
});
