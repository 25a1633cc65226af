export { type LoadedTree, loadTree } from './load-tree.js';
export { loadUtterances } from './load-utterances.js';
export { main } from './main.js';
export { consoleOutput, type Output } from './output.js';
