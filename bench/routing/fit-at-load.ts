import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import type { FittedSpace, SpaceFitter } from '../../packages/core/src/adapter/index.js';
import type { LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { TreeAgent } from '../../packages/core/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { clincTestSet, clincTree, loadClinc150 } from './clinc150.js';
import { routeCounts } from './route-counts.js';

/**
 * A fit at load from a cold cache, as a user gets it: `new TreeAgent({ tree, spaceFitter:
 * spaceFitter() })` on the English tree of CLINC150 `train` (`--per-intent`, default 100: 15,000
 * chunks), nothing cached, nothing made ahead. Times (wall from the start, and the process's CPU,
 * worker threads included) to the unfitted runtime, to the interim fit (over the USE-lite student +
 * hashed, `@treeagent/fit`'s `interimFit`) and to the final one (over USE-lite + hashed). Then, once
 * the run is over (so the timings are not disturbed), the routing of `val` + `oos_val` in each of
 * the three spaces: unfitted, interim, final. `--interim`: `spaceFitter({ interimFit: true })` (an
 * interim fit over the student first, the default before USE-lite ran on ONNX Runtime);
 * `--no-interim`: `interimFit: false`; neither: the library's default.
 *
 * `--no-refine`: the fit without the refinement of its map on the chunks (`FitOptions.refine: false`).
 * `--calibration-samples=128`: the calibration samples that many chunks per routing node instead of
 * what the fitted space asks for (the agent's `calibrateThresholds: { samplesPerNode }`).
 *
 * CLINC150_DIR=/path/to/clinc150 npx tsx bench/routing/fit-at-load.ts [--per-intent=100] [--interim|--no-interim] [--no-refine] [--calibration-samples=N] [--no-quality] [--json=file]
 */
const option = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
// The library's default (no interim fit over USE-lite since it runs on ONNX Runtime), or forced.
const interimFit = process.argv.includes('--interim')
  ? true
  : process.argv.includes('--no-interim')
    ? false
    : undefined;
const interimLabel = interimFit === undefined ? 'default' : interimFit ? 'on' : 'off';
const data = loadClinc150();
const tree = clincTree(data, { perIntent: Number(option('per-intent', '100')), threshold: null });
const cpu = () => {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};
const started = performance.now();
const cpuStart = cpu();
const mark = () => ({ wall: performance.now() - started, cpu: cpu() - cpuStart });
const marks: Record<string, { wall: number; cpu: number }> = {};

// The library's fitter, with the interim space kept for the quality read at the end.
/** `--no-refine`: the LDA's map as it is (`FitOptions.refine: false`), the fit before 2026-12-07's refinement. */
const noRefine = process.argv.includes('--no-refine');
const library = spaceFitter({
  cacheDirectory: false,
  ...(interimFit === undefined ? {} : { interimFit }),
  ...(noRefine ? { refine: false as const } : {}),
});
let interimSpace: FittedSpace | undefined;
const fitter: SpaceFitter = {
  ...library,
  id: library.id,
  cached: (request) => library.cached(request),
  fit: (request) =>
    library.fit({
      ...request,
      ...(request.onInterim
        ? {
            onInterim: async (space: FittedSpace) => {
              interimSpace = space;
              marks.interim = mark();
              await request.onInterim!(space);
            },
          }
        : {}),
    }),
};
const samples = option('calibration-samples', '');
const agent = new TreeAgent({
  tree,
  spaceFitter: fitter,
  log: () => {},
  ...(samples ? { calibrateThresholds: { samplesPerNode: Number(samples) } } : {}),
});
await agent.ready();
marks.unfitted = mark();
const status = await agent.whenFitted();
marks.final = mark();
if (status.state !== 'fitted') throw new Error(`not fitted: ${JSON.stringify(status)}`);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const at = (name: string) =>
  marks[name] ? `${seconds(marks[name]!.wall)} wall, ${seconds(marks[name]!.cpu)} CPU` : 'none';
console.log(
  `${new Date().toISOString()} ${tree.chunks.length} chunks, ${cpus().length} cores (${cpus()[0]?.model}), load average ${loadavg()[0]!.toFixed(1)}; interim fit ${interimLabel}; map ${noRefine ? 'not refined' : 'refined'}; calibration samples per node ${samples || "the fitted space's"}`,
);
console.log(`routing unfitted: ${at('unfitted')}`);
console.log(
  `routing in the interim fitted space: ${at('interim')}${interimSpace ? ` (${interimSpace.baseReason})` : ''}`,
);
console.log(`routing in the final fitted space: ${at('final')} (${status.base ?? status.baseId})`);

interface Outcome {
  inScopeRight: number;
  inScopeAnswered: number;
  outOfScopeDeclined: number;
}
async function outcome(routed: TreeAgent, test: LabelledUtterance[]): Promise<Outcome> {
  const counts = await routeCounts(routed, test);
  const round = (value: number) => Math.round(value * 10000) / 10000;
  return {
    inScopeRight: round(counts.right / counts.inScope),
    inScopeAnswered: round(counts.answered / counts.inScope),
    outOfScopeDeclined: round(counts.declined / counts.outOfScope),
  };
}
/** An agent that routes in `space` from the first message (the fitter's cache hands it over). */
const agentIn = (space: FittedSpace) =>
  new TreeAgent({
    tree,
    spaceFitter: { id: 'bench', cached: async () => space, fit: async () => space },
  });

const quality: Record<string, Outcome> = {};
if (!process.argv.includes('--no-quality')) {
  const test = clincTestSet(data);
  quality.unfitted = await outcome(new TreeAgent({ tree }), test);
  if (interimSpace) quality.interim = await outcome(agentIn(interimSpace), test);
  quality.final = await outcome(agent, test);
  for (const [space, figures] of Object.entries(quality))
    console.log(
      `val (${test.length} messages, one read) in the ${space} space: ${figures.inScopeRight} in-scope right, ${figures.inScopeAnswered} answered, ${figures.outOfScopeDeclined} out-of-scope declined`,
    );
}
const json = option('json', '');
if (json)
  writeFileSync(
    json,
    `${JSON.stringify({ date: new Date().toISOString(), chunks: tree.chunks.length, interim: interimLabel, loadAverage: loadavg()[0], marks, quality }, null, 2)}\n`,
  );
process.exit(0);
