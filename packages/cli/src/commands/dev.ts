import { existsSync, writeFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { TreeAgent, TreeAgentError } from '@treeagent/core';
import type { LanguageModel } from '@treeagent/core/adapter';
import { formatTreeDocument, TREE_DOCUMENT_FORMAT, TREE_DOCUMENT_VERSION } from '@treeagent/core/document';
import { spaceFitter } from '@treeagent/fit';
import { isLoopback, loadOperatorsFile, operatorDirectory, serve, WEB_DIRECTORY } from '@treeagent/server';
import { openDataDirectory } from '../data-directory.js';
import { describeDeploymentConfig, readDeploymentConfig } from '../deployment-config.js';
import { deploymentLocale, localeOption } from '../deployment-locale.js';
import { loadTree } from '../load-tree.js';
import { missingModelLines } from '../missing-model-lines.js';
import { cliModelHelp } from '../model-help.js';
import type { Output } from '../output.js';
import { sourcesOptions } from '../server-stores.js';
import { describeSpace, fitOptions } from '../space.js';
import { fileTreeEditor } from '../tree-editor-file.js';
import { parsePort, portInUseError } from '../user-errors.js';
import { serverVersions } from '../versions/server-versions.js';
import { versionRecorder } from '../versions/version-recorder.js';
import { watchFiles } from '../watch-file.js';
import { defineCommand } from './command-definition.js';
import { REDACTION_FLAGS, redactionOption } from './redaction-option.js';

export interface DevOptions {
  config?: string;
  /** The deployment's language (`it`, `en`, `es`): the pages and the server's customer messages use it. */
  locale?: string;
  data?: string;
  port?: string;
  host?: string;
  /** Reload the tree when its files change (default true). */
  watch?: boolean;
  apiKey?: string[];
  /**
   * Debug mode (traces, chunk texts, `POST /api/v1/route`). Default: on when bound to a loopback
   * address, off otherwise; `true` asks for it on any address.
   */
  debug?: boolean;
  /** Host names the server answers to. Default on a loopback address: the loopback names. */
  allowedHost?: string[];
  /** Operators file: turns on operator login, the console and handoff (logins and audit log in the data directory). */
  operators?: string;
  /**
   * The labelled utterance set: the Analytics page's "add to utterances" appends to it, and the
   * editor's threshold suggestions come from it (default for the editor: `utterances.tsv` etc. beside the tree).
   */
  utterances?: string;
  /** Redact personal data (e-mail, phone, IBAN, cards, codice fiscale) before anything is stored. */
  redact?: boolean;
  /** `--redact-live <detectors>`: what the live turn still sees (docs/privacy.md). */
  redactLive?: string;
  /** The tree editor (`/staff/editor`): default on in debug mode or with operators (then for admins only). */
  editor?: boolean;
}

/** A running dev server. */
export interface DevServer {
  url: string;
  /** Number of successful reloads so far. */
  readonly reloads: number;
  /** Resolves after the next reload attempt (for tests). */
  nextReload(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `treeagent dev <tree>`: the server with the chat page and the debug view, sessions in the SQLite
 * data directory, and hot reload — when the tree's files change the tree is loaded again and swapped
 * in, keeping every session; a tree that fails to load is reported and the old one keeps serving.
 */
export async function startDev(treePath: string, options: DevOptions, out: Output): Promise<DevServer> {
  const operators = options.operators ? readOperators(options.operators) : null;
  // The help desk (teams, escalation, webhook) and single sign-on of the configuration file, secrets read now.
  const deployment = readDeploymentConfig(treePath, options.config);
  const created = createEmptyTree(treePath);
  if (created)
    out.log(`Created ${created}: an empty tree (a root and its primary agent) to build in the editor.`);
  let loaded = await loadTree(treePath, {
    ...(options.config ? { config: options.config } : {}),
    missingModels: 'notice',
  });
  const data = openDataDirectory(options.data);
  // Every save of the tree is a version (docs/versions.md): at start, in the editor, on a file change.
  const recordVersion = versionRecorder(
    data.versionStore,
    treePath,
    options.config ? { config: options.config } : {},
    out,
  );
  const redaction = redactionOption(options);
  const agent = new TreeAgent({
    tree: loaded.tree,
    ...data.options,
    ...fitOptions(options.data, out, loaded.path, loaded.fitBase),
    ...loaded.agentOptions,
    ...(redaction ? { redaction } : {}),
  });
  // The Analytics page's "add as chunks" edits the tree's files; the tree is reloaded at once.
  let treeChanged = () => {};
  await agent.ready();
  const hostname = options.host ?? '127.0.0.1';
  // Debug shows the tree's texts and every trace: never on an address others reach unless asked.
  const debug = options.debug ?? isLoopback(hostname);
  const port = options.port === undefined ? 3000 : Number(options.port);
  // Editing rewrites the tree file: the developer's own (debug, loopback) or an admin's (operators).
  const editor = options.editor !== false && (debug || operators !== null);
  const server = await serve({
    agent,
    // The developer's chat page (pages' links, the session, the inspector), debug mode or not.
    web: { directory: WEB_DIRECTORY, view: 'developer' },
    ...localeOption(deploymentLocale(options.locale, loaded.path, options.config)),
    debug,
    port,
    hostname,
    ...(options.allowedHost?.length ? { allowedHosts: options.allowedHost } : {}),
    // In the data directory's SQLite file: the chat page's session survives a restart.
    sessionTokens: data.sessionTokens,
    // Handed-off sessions stay in the console's queue across restarts.
    handoff: { ...data.handoff, ...deployment.handoff },
    // Knowledge sources (the Sources page) in the same file; uploads under <data>/sources/.
    sources: sourcesOptions(data.sourceStore, options.data),
    ...(options.apiKey?.length ? { apiKeys: options.apiKey } : {}),
    ...(operators || deployment.oidc
      ? {
          operators: {
            ...(operators ? { directory: operators } : {}),
            ...(deployment.oidc ? { oidc: deployment.oidc } : {}),
            sessions: data.operatorSessions,
            auditLog: data.auditLog,
          },
        }
      : {}),
    // The editor's Versions panel: list, diff, gated publish, rollback (docs/versions.md); an admin's
    // with operators, else the developer's (debug mode, author "dev").
    ...(editor
      ? {
          versions: await serverVersions(
            data.versionStore,
            treePath,
            {
              ...(options.config ? { config: options.config } : {}),
              ...(options.data ? { data: options.data } : {}),
              ...(options.utterances ? { utterances: options.utterances } : {}),
            },
            out,
          ),
        }
      : {}),
    ...(editor
      ? {
          editor: fileTreeEditor(treePath, {
            ...(options.config ? { config: options.config } : {}),
            ...(options.utterances ? { utterances: options.utterances } : {}),
            onSaved: (author) => recordVersion(author, 'saved in the editor'),
            // A callbacks module saved in the editor is loaded before the save answers: the next turn runs it.
            onCallbacksSaved: async () => {
              clearTimeout(timer);
              await reload();
            },
            // "Suggest chunks" asks the configured default model; without one it offers unmatched messages.
            suggestionModel: (loaded.agentOptions.models as Record<string, LanguageModel> | undefined)
              ?.default,
            agentOptions: {
              // Drafts are fitted as before core stopped looking for @treeagent/fit by itself: by its
              // default fitter, uncached (a draft's fit is not worth a file in the data directory).
              spaceFitter: spaceFitter({
                cacheDirectory: false,
                ...(loaded.fitBase ? { base: loaded.fitBase } : {}),
              }),
              // A draft with an llm node routes before a model is configured, as the served tree does.
              missingModels: 'notice',
              modelHelp: cliModelHelp,
              ...(loaded.agentOptions.embedder ? { embedder: loaded.agentOptions.embedder } : {}),
              ...(data.options.embeddingCache ? { embeddingCache: data.options.embeddingCache } : {}),
            },
          }),
        }
      : {}),
    analytics: {
      treeFile: loaded.path,
      ...(options.utterances ? { utterancesFile: resolve(options.utterances) } : {}),
      onTreeChange: () => treeChanged(),
    },
  }).catch(async (error: unknown) => {
    await data.close();
    throw portInUseError(error, hostname, port) ?? error;
  });
  // Once the server runs: a start that fails (a port in use) records and says nothing.
  await recordVersion('cli', 'treeagent dev started');
  out.log(
    `Tree Agent dev server: ${loaded.tree.name} (${loaded.tree.nodes.size} nodes, ${loaded.tree.chunks.length} chunks); ${loaded.modelSource}.`,
  );
  const defaultModel = (loaded.agentOptions.models as Record<string, { id: string }> | undefined)?.default;
  out.log(
    defaultModel
      ? `Mode: generative, with ${defaultModel.id}.`
      : 'Mode: offline (routing, static answers, retrieved sources; no language model). To generate answers, set OPENAI_API_KEY, or TREEAGENT_PROVIDER=openai-compatible TREEAGENT_BASE_URL=http://localhost:11434/v1 TREEAGENT_MODEL=llama3.2 for Ollama, or write treeagent.config.json next to the tree (docs/models.md).',
  );
  for (const line of missingModelLines(loaded.tree, loaded.agentOptions)) out.log(line);
  out.log(`Sessions, ingested documents and embeddings in ${data.file}.`);
  out.log(describeSpace(agent.space()));
  out.log(`Chat page: ${server.url}/`);
  const helpDesk = describeDeploymentConfig(deployment);
  if (helpDesk) out.log(helpDesk);
  if (operators || deployment.oidc)
    out.log(
      `Operator console: ${server.url}/staff/console (${operators ? `operators from ${options.operators}` : `single sign-on through ${deployment.oidc?.issuer}`}).`,
    );
  if (editor)
    out.log(
      `Tree editor: ${server.url}/staff/editor${extname(treePath) === '.json' ? '' : ' (read-only: the tree is code; treeagent export --json converts it)'}${operators ? ' (admins only)' : ''}.`,
    );
  if (debug && !isLoopback(hostname))
    out.error(
      `Debug mode is on while listening on ${hostname}: anyone who reaches this address sees traces and the tree's texts.`,
    );
  else if (!debug) out.log('Debug mode is off (--debug turns it on).');

  let reloads = 0;
  let waiting: (() => void)[] = [];
  let unwatch = () => {};
  let timer: NodeJS.Timeout | undefined;
  const settle = () => {
    const resolvers = waiting;
    waiting = [];
    for (const resolve of resolvers) resolve();
  };
  const reload = async () => {
    try {
      const next = await loadTree(treePath, {
        ...(options.config ? { config: options.config } : {}),
        missingModels: 'notice',
      });
      await agent.setTree(next.tree);
      loaded = next;
      reloads++;
      await recordVersion('watch', 'file change picked up by treeagent dev');
      out.log(
        `Reloaded ${next.tree.name} (${next.tree.nodes.size} nodes, content hash ${next.tree.contentHash}); sessions kept.`,
      );
      rewatch();
    } catch (error) {
      out.error(
        `Reload failed, still serving the previous tree:\n${TreeAgentError.isInstance(error) ? error.message : String(error)}`,
      );
    } finally {
      settle();
    }
  };
  const rewatch = () => {
    unwatch();
    if (options.watch === false) return;
    // The files' directories are watched: a file replaced by a rename (the editor's atomic save,
    // vim, git) is still followed.
    unwatch = watchFiles(loaded.files, () => {
      clearTimeout(timer);
      timer = setTimeout(() => void reload(), 150);
    });
  };
  rewatch();
  treeChanged = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void reload(), 150);
  };
  return {
    url: server.url,
    get reloads() {
      return reloads;
    },
    nextReload: () => new Promise((resolve) => waiting.push(resolve)),
    close: async () => {
      clearTimeout(timer);
      unwatch();
      await server.close();
      await data.close();
    },
  };
}

/** The operators of `--operators <file>`, or an `INVALID_INPUT` error naming the file and the problem. */
function readOperators(file: string) {
  try {
    return operatorDirectory(loadOperatorsFile(file));
  } catch (error) {
    throw new TreeAgentError('INVALID_INPUT', (error as Error).message, { cause: error });
  }
}

/** A `.json` tree path that does not exist yet becomes an empty tree to build in the editor; returns its path. */
function createEmptyTree(treePath: string): string | null {
  const path = resolve(treePath);
  if (extname(path) !== '.json' || existsSync(path)) return null;
  const name = basename(path, '.json');
  writeFileSync(
    path,
    formatTreeDocument({
      format: TREE_DOCUMENT_FORMAT,
      version: TREE_DOCUMENT_VERSION,
      name,
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, parent: 1, type: 'agent', name: 'assistant', isPrimary: true },
      ],
    }),
  );
  return path;
}

/** The command: runs until SIGINT or SIGTERM, then shuts down gracefully. */
export async function devCommand(treePath: string, options: DevOptions, out: Output): Promise<number> {
  const dev = await startDev(treePath, options, out);
  await new Promise<void>((resolve) => {
    const stop = () => {
      out.error('Shutting down…');
      void dev.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

/** `treeagent dev`: its help, arguments and options (the command table, `command-table.ts`). */
export const devDefinition = defineCommand({
  name: 'dev',
  description:
    'Run the server with the chat page and the debug view; reload the tree when its files change, keeping sessions.',
  arguments: [{ name: '<tree>', description: 'tree file (.ts, .js or .json)' }],
  options: [
    {
      flags: '--config <file>',
      description:
        'configuration: models, locale, the help desk (helpDesk) and single sign-on (oidc); default treeagent.config.json beside the tree',
    },
    {
      flags: '--data <directory>',
      description: 'data directory (SQLite: sessions, ingested documents, embedding cache)',
      default: '.treeagent',
    },
    { flags: '--port <port>', description: 'port (0 picks a free one)', parse: parsePort, default: '3000' },
    { flags: '--host <host>', description: 'interface to listen on', default: '127.0.0.1' },
    { flags: '--api-key <key...>', description: 'require this API key on the API' },
    {
      flags: '--operators <file>',
      description:
        'operators file ({ "operators": [{ id, name, role, passwordHash }] }): turns on the operator console and human handoff',
    },
    {
      flags: '--utterances <file>',
      description:
        "labelled utterances (TSV): the Analytics page adds unmatched messages to them, the editor's threshold suggestions come from them (default for the editor: utterances.tsv beside the tree)",
    },
    ...REDACTION_FLAGS,
    { flags: '--no-watch', description: 'do not reload on changes' },
    {
      flags: '--locale <language>',
      description:
        'the language of the pages and of the customer messages (en, it, es); default: "locale" of treeagent.config.json, else the browser',
    },
    {
      flags: '--debug',
      description: 'debug mode even on a non-loopback --host (traces, chunk texts, POST /api/v1/route)',
    },
    { flags: '--no-debug', description: 'no debug mode (the default on a non-loopback --host)' },
    {
      flags: '--allowed-host <name...>',
      description:
        'host names the server answers to (default on a loopback --host: localhost, 127.0.0.1, [::1], *.localhost)',
    },
    { flags: '--no-editor', description: 'no tree editor (/staff/editor)' },
  ],
  run: ([tree], options, out) => devCommand(tree, options, out),
});
