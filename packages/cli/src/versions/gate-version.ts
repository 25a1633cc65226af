import type { PublishGate, RoutingFigures, TreeVersion } from '@treeagent/core/adapter';
import type { Output } from '../output.js';
import { type GateInputs, type GateResult, gateFiles, runPublishGate } from './publish-gate.js';
import { versionFile } from './version-file.js';

/**
 * Runs an environment's publish gate on a stored version of the tree at `treePath`: the version
 * written where it loads (`versionFile`), its conversation tests and routing eval run
 * (`runPublishGate`), the copy removed. What `treeagent publish` and the editor's publish (the
 * server's `/api/v1/versions/publish` under `treeagent dev`) both run.
 */
export async function gateVersion(
  treePath: string,
  version: TreeVersion,
  gate: PublishGate,
  previous: RoutingFigures | null,
  inputs: GateInputs,
  out: Output,
): Promise<GateResult & { files: ReturnType<typeof gateFiles> }> {
  const config = inputs.config ? { config: inputs.config } : {};
  const files = gateFiles(treePath, {
    ...(inputs.tests ? { tests: inputs.tests } : {}),
    ...(inputs.utterances ? { utterances: inputs.utterances } : {}),
  });
  const loadable = await versionFile(treePath, version, config);
  try {
    const result = await runPublishGate(
      loadable.path,
      files,
      gate,
      previous,
      { ...config, ...(inputs.data ? { data: inputs.data } : {}) },
      out,
    );
    return { ...result, files };
  } finally {
    loadable.dispose();
  }
}
