import { existsSync, realpathSync } from 'node:fs';
import { dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { TreeAgentError } from '@treeagent/core';

/** The extensions a callback module may have: scripts Node or tsx import, nothing else on the disk. */
export const MODULE_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];

/**
 * The real path of the callback module a tree document names (`"module"`), for the tree editor:
 * relative to the tree file and, once symbolic links are followed, inside the tree file's directory
 * (a subdirectory is fine), with a script's extension. Anything else — `../`, an absolute path, a
 * link that leads out of the directory, a data file — throws a `TreeAgentError` that says why and how
 * to fix it, before anything is imported: a draft sent to the editor cannot run a file elsewhere on
 * the server's disk. Import the returned path (the one checked), not the name.
 */
export function treeModulePath(treePath: string, module: string): string {
  const fix = (what: string) =>
    new TreeAgentError('INVALID_INPUT', `"module" is ${JSON.stringify(module)}: ${what}`, {
      details: {
        fix: 'Put the callback module inside the tree\'s directory and name it relative to the tree file, e.g. "./tree.callbacks.ts".',
      },
    });
  if (isAbsolute(module))
    throw fix("an absolute path; the editor loads callback modules only from inside the tree's directory.");
  if (!MODULE_EXTENSIONS.includes(extname(module)))
    throw fix(
      `not a script; a callback module ends in ${MODULE_EXTENSIONS.slice(0, -1).join(', ')} or ${MODULE_EXTENSIONS.at(-1)}.`,
    );
  const treeDirectory = dirname(resolve(treePath));
  const named = resolve(treeDirectory, module);
  if (!inside(treeDirectory, named))
    throw fix(
      `it is outside the tree's directory (${treeDirectory}); the editor loads callback modules only from inside it.`,
    );
  if (!existsSync(named))
    throw new TreeAgentError(
      'INVALID_INPUT',
      `The callback module "${module}" (${named}) does not exist. Create it, or correct "module".`,
      { details: { fix: 'Create the module, or correct "module".' } },
    );
  // After symbolic links: a link inside the directory may lead anywhere.
  const directory = realpathSync(treeDirectory);
  const real = realpathSync(named);
  if (!inside(directory, real))
    throw fix(
      `it leads out of the tree's directory (${directory}) through a symbolic link, to ${real}; the editor loads callback modules only from inside it.`,
    );
  return real;
}

function inside(directory: string, path: string): boolean {
  const rest = relative(directory, path);
  return rest !== '' && !rest.startsWith(`..${sep}`) && rest !== '..' && !isAbsolute(rest);
}
