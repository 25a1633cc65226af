import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { PublishGate, RoutingFigures } from '@treeagent/core/adapter';
import { formatFailures } from '@treeagent/testing';
import { measureRouting } from '../commands/eval.js';
import { conversationFiles, playConversations, yamlFilesIn } from '../commands/test.js';
import { loadTree } from '../load-tree.js';
import { loadUtterances } from '../load-utterances.js';
import type { Output } from '../output.js';

/** How far a node's recall may fall below its last published figure when the environment sets no margin. */
export const DEFAULT_RECALL_MARGIN = 0.05;

/** What the gate checks a tree with: its conversation tests and labelled utterances. */
export interface GateInputs {
  /**
   * Conversation files; default: every `.yaml` in `conversations/` beside the tree, else in `tests/`
   * of its project (the nearest directory above it with a `package.json`, as `npm create treeagent`
   * lays it out).
   */
  tests?: string[];
  /** Labelled utterances; default: `utterances.{tsv,csv,json,jsonl}` beside the tree, else in `data/` of its project. */
  utterances?: string;
  config?: string;
  data?: string;
}

/** What the gate found: each failure as a line, the routing figures, and what it ran. */
export interface GateResult {
  failures: string[];
  figures: RoutingFigures | null;
  /** One line per check run (for the command's output). */
  ran: string[];
}

const UTTERANCE_FILES = ['utterances.tsv', 'utterances.csv', 'utterances.json', 'utterances.jsonl'];

/**
 * The tree's conversation test files and labelled utterances, as given, or found beside `treePath`
 * (`conversations/*.yaml`, `utterances.tsv`…), or else where a scaffolded project keeps them
 * (`tests/*.yaml`, `data/utterances.tsv`… of the nearest directory above with a `package.json`).
 */
export function gateFiles(
  treePath: string,
  inputs: GateInputs,
): { tests: string[]; utterances: string | null } {
  const directory = dirname(resolve(treePath));
  const project = projectOf(directory);
  // Given files and directories as `treeagent test` takes them (a directory: its .yaml files).
  const tests = inputs.tests
    ? conversationFiles(inputs.tests)
    : firstNonEmpty([join(directory, 'conversations'), project && join(project, 'tests')]);
  const places = [directory, ...(project ? [join(project, 'data')] : [])];
  const utterances =
    inputs.utterances ??
    places
      .flatMap((place) => UTTERANCE_FILES.map((name) => join(place, name)))
      .find((file) => existsSync(file)) ??
    null;
  return { tests, utterances: utterances === null ? null : resolve(utterances) };
}

/** The `.yaml` files of the first of `directories` that has some. */
function firstNonEmpty(directories: (string | null)[]): string[] {
  for (const directory of directories) {
    const files = directory ? yamlFilesIn(directory) : [];
    if (files.length) return files;
  }
  return [];
}

/** The nearest directory at or above `directory` with a `package.json`, or null. */
function projectOf(directory: string): string | null {
  for (let current = directory; ; current = dirname(current)) {
    if (existsSync(join(current, 'package.json'))) return current;
    if (dirname(current) === current) return null;
  }
}

/**
 * Runs the publish gate on the tree file at `loadPath` (the version to publish): its conversation
 * tests must pass; its routing eval must reach the environment's `minAccuracy` and `minOosRecall`;
 * no node's recall may fall below its figure at the last publish (`previous`) by more than the
 * margin (`maxRecallDrop`, default 0.05). Every failure is listed, not only the first.
 */
export async function runPublishGate(
  loadPath: string,
  files: { tests: string[]; utterances: string | null },
  gate: PublishGate,
  previous: RoutingFigures | null,
  options: { config?: string; data?: string },
  out: Output,
): Promise<GateResult> {
  const failures: string[] = [];
  const ran: string[] = [];
  if (files.tests.length) {
    const results = await playConversations(loadPath, files.tests, options);
    const failed = results.filter((result) => !result.passed);
    ran.push(`conversation tests: ${results.length - failed.length} of ${results.length} passed`);
    for (const result of failed) failures.push(`conversation test "${result.name}" (${result.file}) failed`);
    if (failed.length) out.log(formatFailures(results));
  }
  let figures: RoutingFigures | null = null;
  const asksRouting = gate.minAccuracy !== null || gate.minOosRecall !== null || previous !== null;
  if (files.utterances) {
    const loaded = await loadTree(loadPath, options.config ? { config: options.config } : {});
    const { report } = await measureRouting(
      loaded,
      loadUtterances(files.utterances),
      options.data ? { data: options.data } : {},
      out,
    );
    figures = {
      accuracy: report.accuracy,
      outOfScopeRecall: report.outOfScope ? report.outOfScopeRecall : null,
      nodeRecall: Object.fromEntries(
        report.perNode.filter((score) => score.support > 0).map((score) => [score.name, score.recall]),
      ),
    };
    ran.push(
      `routing eval (${files.utterances}): accuracy ${figures.accuracy.toFixed(3)}${figures.outOfScopeRecall === null ? '' : `, out-of-scope recall ${figures.outOfScopeRecall.toFixed(3)}`}`,
    );
    failures.push(...routingFailures(figures, gate, previous));
  } else if (asksRouting) {
    failures.push(
      'the environment asks for routing figures (a minimum accuracy or out-of-scope recall, or the recall of the last publish), but the tree has no labelled utterances: give --utterances <file> or put utterances.tsv beside the tree',
    );
  }
  return { failures, figures, ran };
}

/** The routing checks of the gate on measured figures. */
export function routingFailures(
  figures: RoutingFigures,
  gate: PublishGate,
  previous: RoutingFigures | null,
): string[] {
  const failures: string[] = [];
  if (gate.minAccuracy !== null && figures.accuracy < gate.minAccuracy)
    failures.push(
      `routing accuracy ${figures.accuracy.toFixed(3)} is below the environment's minimum ${gate.minAccuracy}`,
    );
  if (gate.minOosRecall !== null) {
    if (figures.outOfScopeRecall === null)
      failures.push(
        `the environment asks for an out-of-scope recall of ${gate.minOosRecall}, but the utterances have none labelled "none": add some`,
      );
    else if (figures.outOfScopeRecall < gate.minOosRecall)
      failures.push(
        `out-of-scope recall ${figures.outOfScopeRecall.toFixed(3)} is below the environment's minimum ${gate.minOosRecall}`,
      );
  }
  const margin = gate.maxRecallDrop ?? DEFAULT_RECALL_MARGIN;
  for (const [node, before] of Object.entries(previous?.nodeRecall ?? {})) {
    const now = figures.nodeRecall[node];
    if (now === undefined) continue; // The node is gone, or no utterance names it any more.
    if (before - now > margin + 1e-9)
      failures.push(
        `node "${node}": recall ${now.toFixed(3)}, was ${before.toFixed(3)} at the last publish (a drop of ${(before - now).toFixed(3)}, more than the margin ${margin})`,
      );
  }
  return failures;
}
