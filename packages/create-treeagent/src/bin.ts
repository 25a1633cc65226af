#!/usr/bin/env node
// `npm create treeagent@latest my-bot`: writes a ready Tree Agent project.
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
