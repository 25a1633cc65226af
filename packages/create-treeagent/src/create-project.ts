import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Language, Template, TreeFormat } from './project-kind.js';
import { projectFiles } from './templates/project-files.js';

export interface CreateOptions {
  /** Where to write the project; created when missing, refused when not empty. */
  directory: string;
  language: Language;
  template: Template;
  /** `json` (default): a JSON tree the editor edits and a typed callbacks module; `ts`: a TypeScript tree. */
  format?: TreeFormat;
  /** The version range of the @treeagent packages the project depends on (default: this package's). */
  treeagentRange?: string;
}

/** A user's mistake: shown as one message, exit code 2. */
export class CreateError extends Error {
  override name = 'CreateError';
}

/** Writes the project and returns the files written (relative paths). */
export function createProject(options: CreateOptions): string[] {
  const directory = resolve(options.directory);
  if (existsSync(directory)) {
    const entries = readdirSync(directory).filter((entry) => entry !== '.git');
    if (entries.length)
      throw new CreateError(
        `The directory ${directory} is not empty (${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', …' : ''}). Choose a new directory name, or empty it first.`,
      );
  }
  const name = packageName(basename(directory));
  const files = projectFiles({
    name,
    language: options.language,
    template: options.template,
    format: options.format ?? 'json',
    treeagentRange: options.treeagentRange ?? `^${ownVersion()}`,
  });
  for (const [path, text] of Object.entries(files)) {
    const target = join(directory, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return Object.keys(files);
}

/** A valid npm package name from a directory name. */
function packageName(directory: string): string {
  const name = directory
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name || 'my-bot';
}

function ownVersion(): string {
  // dist/create-project.js and src/create-project.ts both find the package.json one folder up.
  return (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version;
}
