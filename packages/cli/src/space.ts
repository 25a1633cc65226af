import { extname, join, resolve } from 'node:path';
import type { SpaceStatus, TreeAgentOptions } from '@treeagent/core';
import { spaceFitter } from '@treeagent/fit';
import { DEFAULT_DATA_DIRECTORY } from './data-directory.js';
import type { FitBaseName } from './load-tree.js';
import type { Output } from './output.js';

/** Where the CLI keeps fits: `fits/` in the data directory, beside the sessions and embeddings. */
export function fitsDirectory(data = DEFAULT_DATA_DIRECTORY): string {
  return join(resolve(data), 'fits');
}

/**
 * The fit `treeagent fit` ships with the project, beside the tree: `tree.ts` → `tree.fit.json`.
 * Every command that loads the tree reads it first, and uses it when it was made for the tree's
 * current chunks and base.
 */
export function shippedFitFile(treePath: string): string {
  const extension = extname(treePath);
  return `${extension ? treePath.slice(0, -extension.length) : treePath}.fit.json`;
}

/**
 * Where `treeagent fit` ships a cascade's second fit (`export const fitBase = 'cascade'`): beside the
 * first, `tree.fit.json` → `tree.fit.escalation.json`.
 */
export function escalationFitFile(fitFile: string): string {
  return fitFile.endsWith('.json')
    ? `${fitFile.slice(0, -'.json'.length)}.escalation.json`
    : `${fitFile}.escalation`;
}

/**
 * The agent options of the automatic fit for a command: the fit shipped beside the tree
 * (`shippedFitFile`, and a cascade's second beside it) when it matches, else fits cached in the data
 * directory, over the base the tree module names (`fitBase`), and the agent's
 * background lines (fit ready, fit failed) on the command's output.
 */
export function fitOptions(
  data: string | undefined,
  out: Output,
  treePath?: string,
  base?: FitBaseName,
): Pick<TreeAgentOptions, 'spaceFitter' | 'log'> {
  const shipped = treePath ? shippedFitFile(resolve(treePath)) : undefined;
  return {
    spaceFitter: spaceFitter({
      cacheDirectory: fitsDirectory(data),
      ...(shipped ? { fitFiles: [shipped, escalationFitFile(shipped)] } : {}),
      ...(base ? { base } : {}),
    }),
    log: (level, message) => (level === 'warn' ? out.error(message) : out.log(message)),
  };
}

/** One line on where the embedding space stands, for dev, chat, eval, lint and inspect. */
export function describeSpace(status: SpaceStatus): string {
  switch (status.state) {
    case 'fitted':
      return `embedding space: fitted to the tree (${status.cached ? `cached fit${status.file ? ` ${status.file}` : ''}` : `fitted in ${(status.fitMilliseconds / 1000).toFixed(1)} s`}; base ${status.base ?? status.baseId}${status.detail ? `; ${status.detail}` : ''}); thresholds calibrated in it.`;
    case 'fitting':
      return status.interim
        ? `embedding space: an interim fit (base ${status.interim.base ?? status.interim.baseId}) while the fit runs in the background; the agent switches to the fitted space when it is ready.`
        : `embedding space: unfitted (${status.embedderId}) while the fit runs in the background; the agent switches to the fitted space when it is ready.`;
    case 'failed':
      return status.interim
        ? `embedding space: an interim fit (base ${status.interim.base ?? status.interim.baseId}): the fit failed (${status.error}).`
        : `embedding space: unfitted (${status.embedderId}): the fit failed (${status.error}).`;
    default:
      return `embedding space: unfitted (${status.embedderId}): ${status.reason}.`;
  }
}
