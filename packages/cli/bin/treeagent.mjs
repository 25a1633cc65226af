#!/usr/bin/env node
// Runs the TypeScript sources (and the user's TypeScript tree files) through tsx.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
