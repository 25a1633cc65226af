import fc from 'fast-check';

// Property and fuzz tests run with a fixed seed so that CI is reproducible; set FUZZ_SEED to explore
// other inputs (a failure prints its seed and path for replay).
fc.configureGlobal({ seed: Number(process.env.FUZZ_SEED ?? 20_261_130) });
