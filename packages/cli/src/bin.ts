#!/usr/bin/env node
// The `treeagent` command: compiled JavaScript. A user's TypeScript tree files go through tsx's API,
// registered only for them (see load-tree.ts).
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
