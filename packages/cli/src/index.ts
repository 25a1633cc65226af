export { type ExportOptions, type ExportResult, exportTexts, exportTree } from './commands/export.js';
export { type LoadedTree, loadTree } from './load-tree.js';
export { loadUtterances } from './load-utterances.js';
export { main } from './main.js';
export { consoleOutput, type Output } from './output.js';
