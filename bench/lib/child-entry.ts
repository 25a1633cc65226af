import { pathToFileURL } from 'node:url';
import { MARK } from './child.js';

/** Entry of a child process started by `inChild`: calls `fn(args)` of a module and prints the result. */
const [file, fn, args] = process.argv.slice(2) as [string, string, string];
const module = (await import(pathToFileURL(file).href)) as Record<string, (args: unknown) => unknown>;
const result = await module[fn]!(JSON.parse(args));
process.stdout.write(`${MARK}${JSON.stringify(result)}\n`);
// Open handles (database pools, timers) must not keep a finished measurement alive.
process.exit(0);
