#!/usr/bin/env node
// The `treeagent` command: compiled JavaScript. A user's TypeScript tree files go through tsx's API,
// registered only for them (see load-tree.ts).
import { main } from './main.js';

// `treeagent inspect tree.ts | head`: a closed pipe ends the command quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));
