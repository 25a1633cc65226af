import { channelsDefinition } from './channels.js';
import { chatDefinition } from './chat.js';
import type { CommandDefinition } from './command-definition.js';
import { devDefinition } from './dev.js';
import { evalDefinition } from './eval.js';
import { experimentDefinition } from './experiment.js';
import { exportDefinition } from './export.js';
import { fitDefinition } from './fit.js';
import { ingestDefinition } from './ingest.js';
import { inspectDefinition } from './inspect.js';
import { lintDefinition } from './lint.js';
import { modelsDefinition } from './models.js';
import { operatorPasswordDefinition } from './operator-password.js';
import { personalDataDefinition } from './personal-data.js';
import { publishDefinition } from './publish.js';
import { reportDefinition } from './report.js';
import { rollbackDefinition } from './rollback.js';
import { serveDefinition } from './serve.js';
import { sourcesDefinition } from './sources.js';
import { testDefinition } from './test.js';
import { versionsDefinition } from './versions.js';

/**
 * Every `treeagent` command, in the order `treeagent --help` lists them. A new command is a module
 * in this folder that exports its `defineCommand(…)`, and one line here.
 */
export const COMMANDS: readonly CommandDefinition[] = [
  devDefinition,
  serveDefinition,
  evalDefinition,
  reportDefinition,
  channelsDefinition,
  personalDataDefinition,
  exportDefinition,
  fitDefinition,
  inspectDefinition,
  chatDefinition,
  ingestDefinition,
  sourcesDefinition,
  lintDefinition,
  modelsDefinition,
  operatorPasswordDefinition,
  testDefinition,
  versionsDefinition,
  publishDefinition,
  rollbackDefinition,
  experimentDefinition,
];
