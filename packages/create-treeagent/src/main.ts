import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { CreateError, createProject } from './create-project.js';
import {
  LANGUAGES,
  type Language,
  TEMPLATES,
  type Template,
  TREE_FORMATS,
  type TreeFormat,
} from './project-kind.js';

const USAGE = `Usage: npm create treeagent@latest <directory> [-- --lang en|it --template minimal|support --format json|ts]

  <directory>          where to write the project (created; must be empty)
  --lang <en|it>       language of the tree's texts (default en)
  --template <name>    minimal: a few intents, a component, a form, a fallback (default)
                       support: a customer-service assistant (FAQ component twice, order form)
  --format <json|ts>   json: the tree as a JSON document that the editor of treeagent dev edits,
                       its callbacks in a typed module beside it (default)
                       ts: the tree as a TypeScript module (the editor shows it read-only)
  --yes                no questions: defaults for what the flags do not say

In a terminal, the directory, the language and the template are asked when the flags do not say
them (the format is json unless --format says ts). Ctrl+C or Ctrl+D at a question cancels: nothing
is written.`;

/** Where `main` reads answers and writes messages (injectable for tests). */
export interface Io {
  interactive: boolean;
  ask(question: string): Promise<string>;
  log(line: string): void;
  error(line: string): void;
}

const processIo = (): Io => ({
  interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
  ask: async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    try {
      return await rl.question(question);
    } finally {
      rl.close();
    }
  },
  log: (line) => process.stdout.write(`${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
});

/**
 * Runs `create-treeagent` and returns its exit code: 0 done, 2 bad usage or a non-empty directory,
 * 130 cancelled at a question (Ctrl+C or Ctrl+D: `readline` rejects with an `AbortError`).
 */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (!(error instanceof Error && error.name === 'AbortError')) throw error;
    io.error('Cancelled: nothing was written.');
    return 130;
  }
}

async function run(argv: string[], io: Io): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.log(USAGE);
    return 0;
  }
  const ask = io.interactive && !values.yes;
  let directory = positionals[0];
  if (!directory && ask) directory = (await io.ask('Project directory (my-bot): ')).trim() || 'my-bot';
  if (!directory) {
    io.error(`Say where to create the project, e.g. npm create treeagent@latest my-bot\n\n${USAGE}`);
    return 2;
  }
  const language = await choose<Language>(
    io,
    ask,
    '--lang',
    values.lang,
    LANGUAGES,
    'Language of the tree (en/it)',
  );
  const template = await choose<Template>(
    io,
    ask,
    '--template',
    values.template,
    TEMPLATES,
    'Template (minimal/support)',
  );
  const format = await choose<TreeFormat>(
    io,
    false,
    '--format',
    values.format,
    TREE_FORMATS,
    'Tree format (json/ts)',
  );
  if (language === null || template === null || format === null) return 2;
  const tree = format === 'json' ? 'src/tree.json' : 'src/tree.ts';
  try {
    createProject({ directory, language, template, format });
  } catch (error) {
    if (error instanceof CreateError) {
      io.error(error.message);
      return 2;
    }
    throw error;
  }
  io.log(`Created a Tree Agent project (${template}, ${language}, ${tree}) in ${directory}. Next:

  cd ${directory}
  npm install
  npm test        # type check, lint and the conversation tests
  npm run dev     # the chat page and debug view on http://127.0.0.1:3000/${format === 'json' ? ', the tree editor on /staff/editor' : ''}
  npm run chat    # talk to it in the terminal`);
  return 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      lang: { type: 'string' },
      template: { type: 'string' },
      format: { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

async function choose<T extends string>(
  io: Io,
  ask: boolean,
  flag: string,
  given: string | undefined,
  allowed: readonly T[],
  question: string,
): Promise<T | null> {
  const fallback = allowed[0] as T;
  let value = given;
  if (value === undefined && ask) value = (await io.ask(`${question} [${fallback}]: `)).trim() || fallback;
  value ??= fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  io.error(`${flag} must be one of ${allowed.join(', ')} (got "${value}").`);
  return null;
}
