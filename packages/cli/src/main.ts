import { TreeAgentError } from '@treeagent/core';
import { Command, CommanderError } from 'commander';
import { channelsCheckCommand } from './commands/channels.js';
import { chatCommand } from './commands/chat.js';
import { devCommand } from './commands/dev.js';
import { evalCommand } from './commands/eval.js';
import { exportCommand } from './commands/export.js';
import { fitCommand } from './commands/fit.js';
import { ingestCommand } from './commands/ingest.js';
import { inspectCommand } from './commands/inspect.js';
import { LINT_CALIBRATION_MAX_READS_PER_CHUNK, LINT_FIT_MAX_CHUNKS, lintCommand } from './commands/lint.js';
import { operatorPasswordCommand } from './commands/operator-password.js';
import { personalDataCommand } from './commands/personal-data.js';
import { reportCommand } from './commands/report.js';
import { serveCommand } from './commands/serve.js';
import {
  sourcesAddCommand,
  sourcesListCommand,
  sourcesRefreshCommand,
  sourcesRemoveCommand,
  sourcesSearchCommand,
} from './commands/sources.js';
import { testCommand } from './commands/test.js';
import { consoleOutput, type Output } from './output.js';
import { errorStack, parsePort } from './user-errors.js';

/**
 * Runs the `treeagent` command line and returns its exit code:
 * 0 success, 1 a check failed (e.g. accuracy below --min-accuracy), 2 bad usage or bad input.
 */
export async function main(argv: string[], out: Output = consoleOutput): Promise<number> {
  let code = 0;
  const program = new Command('treeagent')
    .description(
      'Tree Agent: evaluate, inspect and chat with trees of typed nodes routed by semantic similarity.',
    )
    .option('--verbose', 'show the stack trace of an error')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => out.log(text.trimEnd()),
      writeErr: (text) => out.error(text.trimEnd()),
    });
  program
    .command('dev')
    .description(
      'Run the server with the chat page and the debug view; reload the tree when its files change, keeping sessions.',
    )
    .argument('<tree>', 'tree file (.ts, .js or .json)')
    .option('--config <file>', 'model configuration')
    .option(
      '--data <directory>',
      'data directory (SQLite: sessions, ingested documents, embedding cache)',
      '.treeagent',
    )
    .option('--port <port>', 'port (0 picks a free one)', parsePort, '3000')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--api-key <key...>', 'require this API key on the API')
    .option(
      '--operators <file>',
      'operators file ({ "operators": [{ id, name, role, passwordHash }] }): turns on the operator console and human handoff',
    )
    .option(
      '--utterances <file>',
      "labelled utterances (TSV): the Analytics page adds unmatched messages to them, the editor's threshold suggestions come from them (default for the editor: utterances.tsv beside the tree)",
    )
    .option(
      '--redact',
      'redact personal data (e-mail, phone, IBAN, cards, codice fiscale) before anything is stored',
    )
    .option('--no-watch', 'do not reload on changes')
    .option('--debug', 'debug mode even on a non-loopback --host (traces, chunk texts, POST /api/v1/route)')
    .option('--no-debug', 'no debug mode (the default on a non-loopback --host)')
    .option(
      '--allowed-host <name...>',
      'host names the server answers to (default on a loopback --host: localhost, 127.0.0.1, [::1], *.localhost)',
    )
    .option('--no-editor', 'no tree editor (/editor)')
    .action(async (tree: string, options) => {
      code = await devCommand(tree, options, out);
    });
  program
    .command('serve')
    .description(
      'Run the production server: the API, the chat page, the operator console; sessions in SQLite (--data) or PostgreSQL (--database-url). No debug mode, no hot reload unless --watch, the editor only for admins (--editor --operators). Stops gracefully on SIGTERM.',
    )
    .argument('<tree>', 'tree file (.ts, .js, or .json with its callback module)')
    .option('--config <file>', 'model configuration')
    .option(
      '--data <directory>',
      'data directory (SQLite: sessions, uploads, vectors, embeddings; with --database-url only the embedding cache and fits)',
      '.treeagent',
    )
    .option(
      '--database-url <url>',
      'PostgreSQL for every shared store, so several processes can serve (postgres://…; default: TREEAGENT_DATABASE_URL; needs @treeagent/postgres)',
    )
    .option('--schema <name>', 'PostgreSQL schema of the tables (default public)')
    .option('--port <port>', 'port (0 picks a free one)', parsePort, '3000')
    .option('--host <host>', 'interface to listen on (0.0.0.0: every interface)', '127.0.0.1')
    .option('--api-key-file <file>', 'API keys, one per line (chmod 600); or TREEAGENT_API_KEYS=key1,key2')
    .option('--api-key <key...>', 'an API key (visible in the process list: prefer --api-key-file)')
    .option(
      '--channels <file>',
      'messaging channels (docs/channels.md): channels.json, secrets from the environment or chmod 600 files; needs @treeagent/channels',
    )
    .option('--public', 'serve on a non-loopback --host without API keys (a chat page open to anyone)')
    .option(
      '--operators <file>',
      'operators file (chmod 600): operator login, the console, handoff; admins may use --editor',
    )
    .option('--editor', 'the tree editor at /editor, for admins only (needs --operators)')
    .option('--watch', 'reload the tree when its files change, keeping sessions')
    .option('--allowed-host <name...>', 'host names the server answers to (set your public names)')
    .option(
      '--trust-proxy <addresses...>',
      'addresses or CIDR ranges of your reverse proxies (e.g. 127.0.0.1 10.0.0.0/8): per-client limits then count the address they forward; from other peers the header is ignored',
    )
    .option(
      '--trust-proxy-header <name>',
      'the header those proxies write: x-forwarded-for (default) or forwarded (RFC 7239)',
    )
    .option('--message-limit <n>', 'user messages per session per minute (default 30; 0: no limit)')
    .option(
      '--address-message-limit <n>',
      'user messages per client address per minute, all its sessions together (default 120; 0: no limit)',
    )
    .option('--max-message-length <chars>', 'longest user message, in characters (default 10000)')
    .option(
      '--stream-limits <list>',
      'event streams: caps per session, operator, client address and process, and the idle timeout (default session=4,operator=10,address=20,process=1000,idle-ms=900000; give any of them)',
    )
    .option('--utterances <file>', 'labelled utterances (Analytics "add to utterances", editor suggestions)')
    .option('--redact', 'redact personal data before anything is stored')
    .option('--shutdown-timeout <ms>', 'on SIGTERM, how long turns in flight may finish', '10000')
    .action(async (tree: string, options) => {
      code = await serveCommand(tree, options, out);
    });
  program
    .command('eval')
    .description(
      'Routing evaluation: route each labelled utterance as a first message would (the explore step and its climbs) and report in-scope accuracy, out-of-scope recall, per-node scores, confusions, an operating-point threshold and suggested thresholds per node.',
    )
    .argument('<tree>', 'tree file (.ts, .js or .json)')
    .argument(
      '<utterances>',
      'labelled utterances: .json [[text, expected], …], .jsonl, .tsv or .csv; expected is a node name or "none"',
    )
    .option('--config <file>', 'model configuration (default: treeagent.config.json next to the tree)')
    .option('--keep <share>', 'share of in-scope utterances the operating point keeps', '0.9')
    .option('--data <directory>', 'data directory (embedding cache)', '.treeagent')
    .option('--min-accuracy <value>', 'exit with code 1 when the in-scope accuracy is below this value')
    .option('--min-oos-recall <value>', 'exit with code 1 when the out-of-scope recall is below this value')
    .option('--json', 'print the whole report as JSON')
    .action(async (tree: string, utterances: string, options) => {
      code = await evalCommand(tree, utterances, options, out);
    });
  program
    .command('report')
    .description(
      'Analytics over the stored turns: conversations and turns per day, containment, no-match and fallback rates, traffic per node and agent, ambiguous siblings, latency percentiles; --html writes charts, --compare two tree versions, --labels exports review labels for eval and fit.',
    )
    .option('--data <directory>', 'data directory (SQLite)', '.treeagent')
    .option('--database-url <url>', 'read PostgreSQL instead (postgres://…; needs @treeagent/postgres)')
    .option('--schema <name>', 'PostgreSQL schema of the tables (default public)')
    .option('--from <day>', 'first day, YYYY-MM-DD (UTC; default 30 days before --to)')
    .option('--to <day>', 'last day, YYYY-MM-DD (UTC; default today)')
    .option('--version <hash>', 'only turns answered by this tree version (content hash)')
    .option('--compare <versions...>', 'compare two tree versions: --compare <a> <b>')
    .option('--low-margin <value>', 'a decision by less than this is ambiguous', '0.05')
    .option('--tree <file>', 'the tree, to show node names')
    .option('--json', 'print the report as JSON')
    .option('--html <file>', 'write the report with charts as one HTML file')
    .option('--labels <file>', 'write the labelled turns of review as utterances (TSV) for eval and fit')
    .action(async (options) => {
      code = await reportCommand(options, out);
    });
  program
    .command('channels')
    .description(
      'Messaging channels (docs/channels.md): check validates a channels.json (its secrets included, as serve --channels reads them) and prints the webhook URL to register on each platform.',
    )
    .argument('<action>', 'check')
    .argument('<file>', 'the channels configuration (channels.json)')
    .action(async (action: string, file: string) => {
      if (action !== 'check')
        throw new TreeAgentError('INVALID_INPUT', `Unknown channels action "${action}": use check.`);
      code = await channelsCheckCommand(file, out);
    });
  program
    .command('personal-data')
    .description(
      "One user's data on request (docs/privacy.md): export writes every session created for the user (their userId) as JSON — record, history, turn facts, files, handoff notes, audit entries; delete removes all of it (one transaction per store) and their tokens. Audited as cli:<os user>.",
    )
    .argument('<action>', 'export or delete')
    .option('--user <id>', 'the user: the userId given when their sessions were created')
    .option('--session <ids...>', 'sessions by id, besides or instead of the user')
    .option('--data <directory>', 'data directory (SQLite)', '.treeagent')
    .option('--database-url <url>', 'PostgreSQL instead (postgres://…; needs @treeagent/postgres)')
    .option('--schema <name>', 'PostgreSQL schema of the tables (default public)')
    .option('--out <file>', 'export: write the JSON to this file (mode 0600) instead of standard output')
    .option('--yes', 'delete: really delete (without it, says what would be deleted and exits 1)')
    .action(async (action: string, options) => {
      code = await personalDataCommand(action, options, out);
    });
  program
    .command('export')
    .description(
      'Convert a TypeScript or JavaScript tree once to the JSON form (docs/tree-format.md): the tree as data in <tree>.json, its callbacks by name in <tree>.callbacks.ts beside it.',
    )
    .argument('<tree>', 'tree file (.ts or .js)')
    .option('--json', 'write the JSON tree document (the only format, and the default)')
    .option('--out <file>', 'where to write the document (default: the tree path with .json)')
    .option('--force', 'overwrite existing files')
    .option('--config <file>', 'model configuration')
    .action(async (tree: string, options) => {
      code = await exportCommand(tree, options, out);
    });
  program
    .command('fit')
    .description(
      "Fit the embedding space to the tree: a projection learnt from the tree's own chunks (PCA, then LDA over the nodes holding them), written next to the tree; with --utterances, routing unfitted vs fitted.",
    )
    .argument('<tree>', 'tree file (.ts, .js or .json)')
    .option('--utterances <file>', 'held-out labelled utterances to compare unfitted and fitted routing')
    .option('--out <file>', 'where to write the fit (default: <tree>.fit.json next to the tree)')
    .option('--config <file>', 'model configuration')
    .option('--data <directory>', 'data directory (embedding cache)', '.treeagent')
    .option('--depth <n>', 'classes are the nodes at this depth (default: the node holding each chunk)')
    .option('--min-chunks <n>', 'classes with fewer chunks are left out of the fit', '2')
    .option('--shrinkage <value>', 'shrinkage of the within-class scatter, 0…1')
    .option(
      '--base-weight <value>',
      'weight of the base space kept beside the fitted one (nodes left out of the fit fall back to it); 0 = fitted space only',
    )
    .option('--keep <share>', 'share of in-scope utterances the operating point keeps', '0.9')
    .action(async (tree: string, options) => {
      code = await fitCommand(tree, options, out);
    });
  program
    .command('inspect')
    .description(
      'Show the effective tree (components flattened) with ids, types, thresholds and chunk counts.',
    )
    .argument('<tree>', 'tree file (.ts, .js or .json)')
    .option('--config <file>', 'model configuration')
    .option('--json', 'print as JSON')
    .action(async (tree: string, options) => {
      code = await inspectCommand(tree, options, out);
    });
  program
    .command('chat')
    .description("Chat with the agent in the terminal. Type an option's number or text to pick it.")
    .argument('<tree>', 'tree file (.ts, .js or .json)')
    .option('--config <file>', 'model configuration')
    .option('--session <id>', 'session id (sessions persist in the data directory)')
    .option(
      '--data <directory>',
      'data directory (SQLite: sessions, ingested documents, embedding cache)',
      '.treeagent',
    )
    .option('--debug', 'show each explore decision, step and fallback')
    .action(async (tree: string, options) => {
      code = await chatCommand(tree, options, out);
    });
  program
    .command('ingest')
    .description(
      "Load text, Markdown, PDF, HTML and Word (.docx) documents into a query node's collection (SQLite in the data directory); re-runs write only what changed.",
    )
    .argument('<tree>', 'tree file (.ts, .js or .json)')
    .argument('<node>', 'id or name of the query node')
    .argument('<paths...>', 'files or folders (.txt, .md, .pdf, .html, .docx)')
    .option('--config <file>', 'model configuration')
    .option('--data <directory>', 'data directory', '.treeagent')
    .option('--max-chars <n>', 'longest chunk in characters', '800')
    .option('--overlap <n>', 'characters repeated between consecutive chunks', '100')
    .action(async (tree: string, node: string, paths: string[], options) => {
      code = await ingestCommand(tree, node, paths, options, out);
    });
  const sources = program
    .command('sources')
    .description(
      'Knowledge sources of query nodes: websites (crawled or by sitemap) and files, refreshed when they change (docs/knowledge.md).',
    );
  const collect = (value: string, previous: string[] = []) => [...previous, value];
  const common = (command: Command) =>
    command
      .option('--config <file>', 'model configuration')
      .option('--data <directory>', 'data directory', '.treeagent')
      .option(
        '--allow-host <host>',
        'a host that may be internal (repeatable; also TREEAGENT_SOURCES_ALLOW_HOSTS)',
        collect,
      )
      .option('--contact <url>', "contact page or mailto: in the crawler's user agent");
  common(
    sources
      .command('add')
      .description('Add a website (start URL), a sitemap (.xml or --sitemap) or a file, then read it.')
      .argument('<tree>', 'tree file (.ts, .js or .json)')
      .argument('<node>', 'id or name of the query node')
      .argument('<location>', 'start URL, sitemap URL or file path')
      .option('--sitemap', 'the URL is a sitemap')
      .option('--every <minutes>', 'refresh on a schedule (with `sources refresh --due` or the server)')
      .option('--max-pages <n>', 'pages stored at most (default 200)')
      .option('--max-depth <n>', 'links followed at most this deep (default 5)')
      .option(
        '--include <pattern>',
        'store only pages whose path matches (repeatable; * matches anything)',
        collect,
      )
      .option(
        '--exclude <pattern>',
        'neither store nor follow pages whose path matches (repeatable)',
        collect,
      )
      .option('--delay <ms>', 'milliseconds between two requests to the site (default 250)')
      .option('--no-refresh', 'add it without reading it now'),
  ).action(async (tree: string, node: string, location: string, options) => {
    code = await sourcesAddCommand(tree, node, location, options, out);
  });
  sources
    .command('list')
    .description('Every source: status, last refresh, pages, chunks, error.')
    .option('--data <directory>', 'data directory', '.treeagent')
    .action(async (options) => {
      code = await sourcesListCommand(options, out);
    });
  common(
    sources
      .command('refresh')
      .description('Read a source again (all of them without an id): only what changed is re-embedded.')
      .argument('<tree>', 'tree file (.ts, .js or .json)')
      .argument('[id]', 'source id (from `sources list`)')
      .option('--due', 'only the scheduled sources that are due (for cron)'),
  ).action(async (tree: string, id: string | undefined, options) => {
    code = await sourcesRefreshCommand(tree, id, options, out);
  });
  common(
    sources
      .command('remove')
      .description('Delete a source and its chunks.')
      .argument('<tree>', 'tree file (.ts, .js or .json)')
      .argument('<id>', 'source id (from `sources list`)'),
  ).action(async (tree: string, id: string, options) => {
    code = await sourcesRemoveCommand(tree, id, options, out);
  });
  common(
    sources
      .command('search')
      .description('What a query node would retrieve for a message, with titles and URLs.')
      .argument('<tree>', 'tree file (.ts, .js or .json)')
      .argument('<node>', 'id or name of the query node')
      .argument('<message>', 'the user message')
      .option('--limit <n>', "chunks shown (default: the node's chunkQty, else 3)"),
  ).action(async (tree: string, node: string, message: string, options) => {
    code = await sourcesSearchCommand(tree, node, message, options, out);
  });
  program
    .command('lint')
    .description(
      'Validation errors plus warnings: unreachable nodes, ambiguous sibling subtrees (with the chunk pairs), children without chunks, distant anchors; with a fitted embedder, nodes with too few chunks to fit and a stale fit.',
    )
    .argument('<tree>', 'tree file (.ts, .js or .json)')
    .option('--config <file>', 'model configuration')
    .option(
      '--ambiguity <similarity>',
      'chunk pairs of sibling subtrees at or above this similarity are ambiguous',
      '0.9',
    )
    .option('--strict', 'exit with code 1 on warnings too')
    .option(
      '--fit',
      `fit the embedding space and show the thresholds in it even above ${LINT_FIT_MAX_CHUNKS} exploration chunks (slow on large trees)`,
    )
    .option(
      '--thresholds',
      `compute the routing thresholds even when their calibration would read more than ${LINT_CALIBRATION_MAX_READS_PER_CHUNK} similarities per chunk (deep trees above ${LINT_FIT_MAX_CHUNKS} exploration chunks; slow)`,
    )
    .action(async (tree: string, options) => {
      code = await lintCommand(tree, options, out);
    });
  program
    .command('operator-password')
    .description(
      'Print the hash of an operator password read from standard input: the passwordHash of an entry of the operators file.',
    )
    .action(async () => {
      code = await operatorPasswordCommand(out);
    });
  program
    .command('test')
    .description(
      'Play YAML conversation tests against the tree and show what differs; exit code 1 when one fails.',
    )
    .argument('<tree>', 'tree file (.ts, .js or .json)')
    .argument('<conversations...>', 'conversation files (.yaml)')
    .option('--config <file>', 'model configuration')
    .action(async (tree: string, files: string[], options) => {
      code = await testCommand(tree, files, options, out);
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const verbose = argv.includes('--verbose');
    if (TreeAgentError.isInstance(error)) {
      out.error(verbose ? `${error.message}\n\n${errorStack(error)}` : error.message);
      return 2;
    }
    // Not a mistake we recognise: one line, the stack with --verbose.
    const message = error instanceof Error ? error.message : String(error);
    out.error(
      verbose
        ? errorStack(error)
        : `treeagent: ${message}\n(run again with --verbose for the stack trace; if it is not caused by your files, please report it)`,
    );
    return 1;
  }
}
