import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { TreeAgent, TreeAgentError } from '@treeagent/core';
import {
  type ChannelsOptions,
  isLoopback,
  loadOperatorsFile,
  type OperatorAccount,
  openAiCompatible,
  operatorDirectory,
  type RunningServer,
  type ServeOptions,
  type StreamLimitOptions,
  serve,
  type TreeEditorSource,
  type TrustProxyOptions,
  trustedProxies,
  type UpdatableOperatorDirectory,
  WEB_DIRECTORY,
  type WidgetServerOptions,
  webChat,
} from '@treeagent/server';
import { loadChannels } from '../channels-adapter.js';
import { describeDeploymentConfig, readDeploymentConfig } from '../deployment-config.js';
import { deploymentLocale, localeOption } from '../deployment-locale.js';
import { loadTree } from '../load-tree.js';
import type { Output } from '../output.js';
import { checkPrivateFile, readApiKeyFile } from '../secret-files.js';
import { openServerStores } from '../server-stores.js';
import { describeSpace, fitOptions } from '../space.js';
import { fileTreeEditor } from '../tree-editor-file.js';
import { parsePort, portInUseError } from '../user-errors.js';
import { EnvironmentTrees, VERSION_POLL_MS } from '../versions/environment-trees.js';
import { watchFiles } from '../watch-file.js';
import { defineCommand } from './command-definition.js';
import { REDACTION_FLAGS, redactionOption } from './redaction-option.js';

/** Options of `treeagent serve` (the flags; docs/deployment.md). */
export interface ServeCommandOptions {
  config?: string;
  /** The deployment's language (`it`, `en`, `es`): the pages and the server's customer messages use it. */
  locale?: string;
  /** The assistant's name on the customer's chat page (default: the tree's name). */
  assistantName?: string;
  /** Serve the version published to this environment, sessions keeping theirs (docs/versions.md). */
  env?: string;
  /** SQLite data directory (default `.treeagent`); with `databaseUrl`, only the embedding cache and fits. */
  data?: string;
  /** PostgreSQL for every shared store (`postgres://…`; else `TREEAGENT_DATABASE_URL`). */
  databaseUrl?: string;
  /** PostgreSQL schema of the tables (default `public`). */
  schema?: string;
  port?: string;
  host?: string;
  /** API keys on the command line (visible to other users in the process list: prefer the file or the environment). */
  apiKey?: string[];
  /** A file of API keys, one per line, readable by the server's account only. */
  apiKeyFile?: string;
  /** Messaging channels (docs/channels.md): a channels.json whose secrets come from the environment or 0600 files. */
  channels?: string;
  /** Serve on a non-loopback address without API keys (a public chat page): the explicit choice. */
  public?: boolean;
  /** Operators file: operator login, the console, handoff, and the admins who may edit. */
  operators?: string;
  /** The tree editor at `/staff/editor`, for admins (needs `operators`). */
  editor?: boolean;
  /** Reload the tree when its files change, keeping sessions (default off). */
  watch?: boolean;
  allowedHost?: string[];
  /** Origins of the sites that embed the widget (`/widget.js`): CORS on the session routes, any other origin refused. */
  widgetOrigin?: string[];
  /** A file (chmod 600) with the secret sites sign user ids with for the widget's `identify()`. */
  widgetSecretFile?: string;
  /** The widget's language on sites that do not choose one (BCP 47). */
  widgetLocale?: string;
  /** With API keys: the widget may still create and use sessions (it has no key). */
  widgetWithoutApiKey?: boolean;
  /** Addresses or CIDR ranges of the reverse proxies whose client-address header is believed. */
  trustProxy?: string[];
  /** The header those proxies write: `x-forwarded-for` (default) or `forwarded`. */
  trustProxyHeader?: string;
  /** User messages per session per minute (default 30; 0 turns the limit off). */
  messageLimit?: string;
  /** User messages per client address per minute (default 120; 0 turns the limit off). */
  addressMessageLimit?: string;
  /** Longest user message, in characters (default 10 000). */
  maxMessageLength?: string;
  /** Event stream caps and idle timeout: `session=4,operator=10,address=20,process=1000,idle-ms=900000` (any of them). */
  streamLimits?: string;
  utterances?: string;
  redact?: boolean;
  /** `--redact-live <detectors>`: what the live turn still sees (docs/privacy.md). */
  redactLive?: string;
  /** How long in-flight turns may finish on SIGTERM, in milliseconds (default 10 000). */
  shutdownTimeout?: string;
}

/** A running `treeagent serve`. */
export interface ProductionServer {
  url: string;
  /** Number of tree reloads so far (file changes with `--watch`, saves in the editor). */
  readonly reloads: number;
  /** Graceful shutdown: turns in flight finish (up to the shutdown timeout), then the stores close. */
  close(): Promise<void>;
}

/** The API keys from `--api-key`, `--api-key-file` and `TREEAGENT_API_KEYS` (comma-separated). */
function apiKeysOf(options: ServeCommandOptions): string[] {
  const keys = [
    ...(options.apiKey ?? []),
    ...(options.apiKeyFile ? readApiKeyFile(options.apiKeyFile) : []),
    ...(process.env.TREEAGENT_API_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
  ];
  const short = keys.find((key) => key.length < 16);
  if (short !== undefined)
    throw new TreeAgentError(
      'INVALID_INPUT',
      `An API key has ${short.length} characters; use at least 16 random ones (openssl rand -hex 32) in --api-key-file or TREEAGENT_API_KEYS.`,
    );
  return keys;
}

function usage(message: string): TreeAgentError {
  return new TreeAgentError('INVALID_INPUT', message);
}

/** A whole number ≥ `min` from `flag`, or a usage error showing how to write it. */
function wholeNumber(flag: string, value: string, min: number, example: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || number < min)
    throw usage(
      `${flag} ${value} is not a whole number${min > 0 ? ` of at least ${min}` : ''}: write e.g. ${flag} ${example}.`,
    );
  return number;
}

/** `--message-limit`, `--address-message-limit` and `--max-message-length` as `createApp` options. */
function messageLimitsOf(options: ServeCommandOptions): Pick<ServeOptions, 'messageLimit' | 'limits'> {
  const perMinute = (flag: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    const max = wholeNumber(flag, value, 0, '30');
    return max === 0 ? (false as const) : { windowMs: 60_000, max };
  };
  const perSession = perMinute('--message-limit', options.messageLimit);
  const perAddress = perMinute('--address-message-limit', options.addressMessageLimit);
  return {
    messageLimit: {
      ...(perSession === undefined ? {} : { perSession }),
      ...(perAddress === undefined ? {} : { perAddress }),
    },
    ...(options.maxMessageLength === undefined
      ? {}
      : {
          limits: {
            maxMessageLength: wholeNumber('--max-message-length', options.maxMessageLength, 1, '10000'),
          },
        }),
  };
}

const STREAM_LIMIT_KEYS = {
  session: 'perSession',
  operator: 'perOperator',
  address: 'perAddress',
  process: 'perProcess',
  'idle-ms': 'idleTimeoutMs',
} as const satisfies Record<string, keyof StreamLimitOptions>;

/** `--stream-limits session=4,operator=10,…` as `StreamLimitOptions`, or a usage error naming the part. */
function streamLimitsOf(value: string): StreamLimitOptions {
  const limits: StreamLimitOptions = {};
  for (const part of value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)) {
    const [key, number] = part.split('=');
    const option = STREAM_LIMIT_KEYS[key as keyof typeof STREAM_LIMIT_KEYS];
    if (!option || number === undefined || !/^\d+$/.test(number) || Number(number) < 1)
      throw usage(
        `--stream-limits: "${part}" is not one of ${Object.keys(STREAM_LIMIT_KEYS).join(', ')} = a whole number of at least 1; write e.g. --stream-limits session=4,process=1000.`,
      );
    limits[option] = Number(number);
  }
  return limits;
}

/** `--trust-proxy` (addresses, each checked) and `--trust-proxy-header`, or a usage error naming the flag. */
function trustProxyOf(options: ServeCommandOptions): TrustProxyOptions | null {
  const header = options.trustProxyHeader?.toLowerCase();
  if (header !== undefined && header !== 'x-forwarded-for' && header !== 'forwarded')
    throw usage(
      `--trust-proxy-header ${options.trustProxyHeader}: write x-forwarded-for (nginx, HAProxy's option forwardfor) or forwarded (RFC 7239).`,
    );
  const addresses = (options.trustProxy ?? []).flatMap((entry) => entry.split(',')).filter(Boolean);
  if (!addresses.length) {
    if (header)
      throw usage('--trust-proxy-header needs --trust-proxy <addresses> (the proxies that write it).');
    return null;
  }
  try {
    trustedProxies(addresses);
  } catch (error) {
    throw usage(`--trust-proxy: ${(error as Error).message.replace(/^trustProxy: /, '')}`);
  }
  return { addresses, ...(header ? { header } : {}) };
}

/**
 * `treeagent serve <tree>`: the production server. The tree is a TypeScript or JavaScript module or a
 * JSON tree with its callback module (docs/tree-format.md); sessions and the rest in the SQLite data
 * directory or in PostgreSQL (`--database-url`). Never debug mode; no hot reload unless `--watch`;
 * the editor only for admins (`--editor --operators`); on an address other than loopback, API keys
 * are required unless `--public` says the chat page is open to anyone.
 */
export async function startServe(
  treePath: string,
  options: ServeCommandOptions,
  out: Output,
): Promise<ProductionServer> {
  const hostname = options.host ?? '127.0.0.1';
  const port = options.port === undefined ? 3000 : Number(options.port);
  const shutdownTimeoutMs = options.shutdownTimeout === undefined ? 10_000 : Number(options.shutdownTimeout);
  if (!Number.isFinite(shutdownTimeoutMs) || shutdownTimeoutMs < 0)
    throw usage(
      `--shutdown-timeout ${options.shutdownTimeout} is not a number of milliseconds: write e.g. --shutdown-timeout 10000.`,
    );
  const apiKeys = apiKeysOf(options);
  if (!isLoopback(hostname) && !apiKeys.length && !options.public)
    throw usage(
      `treeagent serve on ${hostname} without an API key would let anyone who reaches it use the API. Give keys with --api-key-file <file> (one per line, chmod 600) or TREEAGENT_API_KEYS, or pass --public to serve the chat page to anyone (sessions are still private to their token; docs/security.md).`,
    );
  if (options.operators) checkPrivateFile(options.operators, '--operators');
  const widget = widgetOptions(options);
  // The help desk (teams, escalation, webhook) and single sign-on of the configuration file, secrets read now.
  const deployment = readDeploymentConfig(treePath, options.config);
  if (options.editor && !options.operators && !deployment.oidc)
    throw usage(
      '--editor needs --operators <file>: on a server, only admins may edit the tree (docs/editor.md). Add an operator with role "admin" to the file (treeagent operator-password makes the hash).',
    );
  const operators = options.operators ? readOperators(options.operators) : null;
  if (options.editor && operators && !deployment.oidc && !hasAdmin(options.operators!))
    throw usage(
      `--editor: ${options.operators} has no operator with role "admin", so nobody could edit. Give one operator "role": "admin".`,
    );
  const trustProxy = trustProxyOf(options);
  const messageLimits = messageLimitsOf(options);
  const streams = options.streamLimits === undefined ? null : streamLimitsOf(options.streamLimits);
  const databaseUrl = options.databaseUrl ?? process.env.TREEAGENT_DATABASE_URL;
  const configOption = options.config ? { config: options.config } : {};
  if (options.env && (options.watch || options.editor))
    throw usage(
      `--env ${options.env} serves the published version: it takes no --watch or --editor. Edit with treeagent dev, then treeagent publish ${options.env} (docs/versions.md).`,
    );
  let loaded = await loadTree(treePath, configOption);
  const stores = await openServerStores({
    ...(options.data ? { data: options.data } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(options.schema ? { schema: options.schema } : {}),
  });
  let environment: EnvironmentTrees | null = null;
  let stopFollowing = () => {};
  let server: RunningServer;
  let channels: Awaited<ReturnType<typeof loadChannels>> | null = null;
  let agent: TreeAgent;
  let reloads = 0;
  let timer: NodeJS.Timeout | undefined;
  let unwatch = () => {};
  let unwatchOperators = () => {};
  try {
    if (options.env) {
      environment = await EnvironmentTrees.open(stores.versions, treePath, options.env, configOption, out);
      loaded = environment.loaded;
    }
    const redaction = redactionOption(options);
    agent = new TreeAgent({
      ...(environment ? { sessionTrees: environment } : {}),
      tree: loaded.tree,
      ...stores.agentOptions,
      ...fitOptions(options.data, out, loaded.path, loaded.fitBase),
      ...loaded.agentOptions,
      ...(redaction ? { redaction } : {}),
    });
    await agent.ready();
    const reload = async () => {
      try {
        const next = await loadTree(treePath, configOption);
        await agent.setTree(next.tree);
        loaded = next;
        reloads++;
        out.log(
          `Reloaded ${next.tree.name} (${next.tree.nodes.size} nodes, content hash ${next.tree.contentHash}); sessions kept.`,
        );
        if (options.watch) rewatch();
      } catch (error) {
        out.error(
          `Reload failed, still serving the previous tree:\n${TreeAgentError.isInstance(error) ? error.message : String(error)}`,
        );
      }
    };
    const scheduleReload = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void reload(), 150);
    };
    const rewatch = () => {
      unwatch();
      unwatch = watchFiles(loaded.files, scheduleReload);
    };
    let editor: TreeEditorSource | undefined;
    if (options.editor) {
      const source = fileTreeEditor(treePath, {
        ...configOption,
        ...(options.utterances ? { utterances: options.utterances } : {}),
        // A callbacks module saved in the editor is served before the save answers.
        onCallbacksSaved: async () => {
          clearTimeout(timer);
          await reload();
        },
        agentOptions: {
          ...(loaded.agentOptions.embedder ? { embedder: loaded.agentOptions.embedder } : {}),
          ...(stores.agentOptions.embeddingCache
            ? { embeddingCache: stores.agentOptions.embeddingCache }
            : {}),
        },
      });
      // A save serves the new tree at once, with or without --watch.
      editor = {
        ...source,
        write: async (...args) => {
          const version = await source.write(...args);
          if (!options.watch) scheduleReload();
          return version;
        },
      };
    }
    // Refused before the server starts: a missing or world-readable secret names its fix.
    channels = options.channels ? await loadChannels(options.channels) : null;
    if (widget && channels?.webChat === false)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `--widget-origin needs the web chat, which ${options.channels} turns off ("webChat": false): remove that line, or the widget options.`,
      );
    server = await serve({
      agent,
      ...(channels ? { channels: serverChannelsOf(channels) } : {}),
      web: {
        directory: WEB_DIRECTORY,
        ...(options.assistantName ? { assistantName: options.assistantName } : {}),
      },
      ...localeOption(deploymentLocale(options.locale, loaded.path, options.config)),
      debug: false,
      port,
      hostname,
      ...(options.allowedHost?.length ? { allowedHosts: options.allowedHost } : {}),
      ...(widget ? { widget } : {}),
      ...(trustProxy ? { trustProxy } : {}),
      ...messageLimits,
      ...(streams ? { streams } : {}),
      sessionTokens: stores.sessionTokens,
      handoff: { ...stores.handoff, ...deployment.handoff },
      ...(apiKeys.length ? { apiKeys } : {}),
      ...(operators || deployment.oidc
        ? {
            operators: {
              ...(operators ? { directory: operators } : {}),
              ...(deployment.oidc ? { oidc: deployment.oidc } : {}),
              ...stores.operatorStores,
            },
          }
        : {}),
      ...(editor ? { editor } : {}),
      sources: stores.sources,
      analytics: {
        treeFile: loaded.path,
        ...(options.utterances ? { utterancesFile: resolve(options.utterances) } : {}),
        onTreeChange: scheduleReload,
      },
      shutdown: { timeoutMs: shutdownTimeoutMs },
    }).catch((error: unknown) => {
      throw portInUseError(error, hostname, port) ?? error;
    });
    if (options.watch) rewatch();
    if (environment) stopFollowing = environment.follow(agent, versionPollMs());
    if (operators) {
      // Removing or demoting an operator takes effect at once, without a restart.
      const file = resolve(options.operators!);
      unwatchOperators = watchFiles([file], () => reloadOperators(file, operators, out));
    }
  } catch (error) {
    clearTimeout(timer);
    stopFollowing();
    unwatch();
    unwatchOperators();
    await stores.close();
    throw error;
  }
  out.log(
    `Tree Agent server: ${loaded.tree.name} (${loaded.tree.nodes.size} nodes, ${loaded.tree.chunks.length} chunks; ${loaded.document ? 'JSON tree' : 'tree module'} ${loaded.path}); ${loaded.modelSource}.`,
  );
  out.log(stores.description);
  const helpDesk = describeDeploymentConfig(deployment);
  if (helpDesk) out.log(helpDesk);
  if (environment)
    out.log(
      `Environment ${environment.environment}: version ${environment.versionId} to new sessions; each session keeps the version it started on.`,
    );
  out.log(describeSpace(agent.space()));
  out.log(
    `API keys: ${apiKeys.length ? `${apiKeys.length} configured` : 'none (anyone who reaches the server may create sessions)'}. Hot reload: ${options.watch ? 'on (--watch)' : 'off'}.`,
  );
  if (widget)
    out.log(
      `Widget: ${server.url}/widget.js for ${widget.origins.join(', ')}${widget.identitySecret ? ', signed user ids' : ''}.`,
    );
  for (const webhook of channels?.webhooks ?? [])
    out.log(
      `Channel ${webhook.name} (${webhook.platform}): ${server.url}/channels/${webhook.name}/webhook here; register ${webhook.url}${webhook.where ? ` as ${webhook.where}` : ''}.`,
    );
  if (operators || deployment.oidc)
    out.log(
      `Operator console: ${server.url}/staff/console (${[operators ? `operators from ${options.operators}` : '', deployment.oidc ? `single sign-on through ${deployment.oidc.issuer}` : ''].filter(Boolean).join(', ')}).`,
    );
  if (options.editor)
    out.log(
      `Tree editor: ${server.url}/staff/editor, admins only${extname(treePath) === '.json' ? '' : ' (read-only: the tree is code; treeagent export --json converts it)'}.`,
    );
  out.log(`Listening on ${server.url}`);
  let closing: Promise<void> | null = null;
  return {
    url: server.url,
    get reloads() {
      return reloads;
    },
    close: () => {
      closing ??= (async () => {
        clearTimeout(timer);
        stopFollowing();
        unwatch();
        unwatchOperators();
        const drained = await server.close({ timeoutMs: shutdownTimeoutMs });
        await stores.close();
        out.error(
          `Stopped: ${drained.finished} turn${drained.finished === 1 ? '' : 's'} finished${drained.aborted ? `, ${drained.aborted} aborted unsaved after ${shutdownTimeoutMs} ms` : ''}.`,
        );
      })();
      return closing;
    },
  };
}

/** The operators of `--operators <file>`, or an `INVALID_INPUT` error naming the flag, the file and the problem. */
function readOperators(file: string) {
  try {
    return operatorDirectory(loadOperatorsFile(file));
  } catch (error) {
    throw new TreeAgentError('INVALID_INPUT', `--operators: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Reads the operators file again and applies it at once (`UpdatableOperatorDirectory.update`): removed
 * operators' logins and streams end, a new role applies to the next request. A file that is not
 * valid now changes nothing: the previous operators stay, and the log says why.
 */
function reloadOperators(file: string, directory: UpdatableOperatorDirectory, out: Output): void {
  let accounts: OperatorAccount[];
  try {
    accounts = loadOperatorsFile(file);
  } catch (error) {
    out.error(
      `The operators file changed but cannot be used, so the previous operators stay until it is fixed:\n${(error as Error).message}`,
    );
    return;
  }
  const change = directory.update(accounts);
  const admins = accounts.filter((account) => account.role === 'admin').length;
  out.log(
    `Reloaded the operators from ${file}: ${accounts.length} (${admins} admin${admins === 1 ? '' : 's'}); ${change.removed.length} removed and ${change.changed.length} changed, their open streams ended${change.removed.length + change.passwordChanged.length ? ', the logins of those removed or with a new password deleted' : ''}.`,
  );
  try {
    checkPrivateFile(file, '--operators');
  } catch (error) {
    out.error(`Warning: ${(error as Error).message}`);
  }
}

function hasAdmin(file: string): boolean {
  return loadOperatorsFile(file).some((account) => account.role === 'admin');
}

/** The command: serves until SIGTERM or SIGINT, then shuts down gracefully and exits 0. */
export async function serveCommand(
  treePath: string,
  options: ServeCommandOptions,
  out: Output,
): Promise<number> {
  const server = await startServe(treePath, options, out);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      out.error(`${signal}: shutting down (turns in flight may finish)…`);
      void server.close().then(resolve);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  return 0;
}

/** `treeagent serve`: its help, arguments and options (the command table, `command-table.ts`). */
export const serveDefinition = defineCommand({
  name: 'serve',
  description:
    'Run the production server: the API, the chat page, the operator console; sessions in SQLite (--data) or PostgreSQL (--database-url). No debug mode, no hot reload unless --watch, the editor only for admins (--editor --operators). Stops gracefully on SIGTERM.',
  arguments: [{ name: '<tree>', description: 'tree file (.ts, .js, or .json with its callback module)' }],
  options: [
    {
      flags: '--config <file>',
      description:
        'configuration: models, locale, the help desk (helpDesk) and single sign-on (oidc); default treeagent.config.json beside the tree',
    },
    {
      flags: '--data <directory>',
      description:
        'data directory (SQLite: sessions, uploads, vectors, embeddings; with --database-url only the embedding cache and fits)',
      default: '.treeagent',
    },
    {
      flags: '--database-url <url>',
      description:
        'PostgreSQL for every shared store, so several processes can serve (postgres://…; default: TREEAGENT_DATABASE_URL; needs @treeagent/postgres)',
    },
    { flags: '--schema <name>', description: 'PostgreSQL schema of the tables (default public)' },
    { flags: '--port <port>', description: 'port (0 picks a free one)', parse: parsePort, default: '3000' },
    {
      flags: '--host <host>',
      description: 'interface to listen on (0.0.0.0: every interface)',
      default: '127.0.0.1',
    },
    {
      flags: '--api-key-file <file>',
      description: 'API keys, one per line (chmod 600); or TREEAGENT_API_KEYS=key1,key2',
    },
    {
      flags: '--api-key <key...>',
      description: 'an API key (visible in the process list: prefer --api-key-file)',
    },
    {
      flags: '--channels <file>',
      description:
        'messaging channels (docs/channels.md): channels.json, secrets from the environment or chmod 600 files; needs @treeagent/channels',
    },
    {
      flags: '--public',
      description: 'serve on a non-loopback --host without API keys (a chat page open to anyone)',
    },
    {
      flags: '--operators <file>',
      description:
        'operators file (chmod 600): operator login, the console, handoff; admins may use --editor',
    },
    {
      flags: '--editor',
      description: 'the tree editor at /staff/editor, for admins only (needs --operators)',
    },
    {
      flags: '--locale <language>',
      description:
        'the language of the pages and of the customer messages (en, it, es), whatever the browser asks; default: "locale" of treeagent.config.json, else the browser',
    },
    { flags: '--watch', description: 'reload the tree when its files change, keeping sessions' },
    {
      flags: '--env <environment>',
      description:
        'serve the version published to this environment (treeagent publish); new sessions get a newly published version within seconds, each session keeps the one it started on',
    },
    {
      flags: '--allowed-host <name...>',
      description: 'host names the server answers to (set your public names)',
    },
    {
      flags: '--widget-origin <origin...>',
      description:
        'origins of the sites that embed the widget (/widget.js), e.g. https://shop.example.com; others are refused',
    },
    {
      flags: '--assistant-name <name>',
      description:
        'the assistant\'s name customers read on the chat page (header, title, browser tab), e.g. "Ciclofficina Rossi"; default: the tree\'s name',
    },
    {
      flags: '--widget-locale <locale>',
      description: "the widget's language on every site that does not choose one (e.g. it, en, es)",
    },
    {
      flags: '--widget-without-api-key',
      description:
        'with --api-key-file: let the widget create and use sessions without a key (other API routes keep requiring one)',
    },
    {
      flags: '--widget-secret-file <file>',
      description:
        "file (chmod 600) with the secret your backend signs user ids with for the widget's identify()",
    },
    {
      flags: '--trust-proxy <addresses...>',
      description:
        'addresses or CIDR ranges of your reverse proxies (e.g. 127.0.0.1 10.0.0.0/8): per-client limits then count the address they forward; from other peers the header is ignored',
    },
    {
      flags: '--trust-proxy-header <name>',
      description: 'the header those proxies write: x-forwarded-for (default) or forwarded (RFC 7239)',
    },
    {
      flags: '--message-limit <n>',
      description: 'user messages per session per minute (default 30; 0: no limit)',
    },
    {
      flags: '--address-message-limit <n>',
      description:
        'user messages per client address per minute, all its sessions together (default 120; 0: no limit)',
    },
    {
      flags: '--max-message-length <chars>',
      description: 'longest user message, in characters (default 10000)',
    },
    {
      flags: '--stream-limits <list>',
      description:
        'event streams: caps per session, operator, client address and process, and the idle timeout (default session=4,operator=10,address=20,process=1000,idle-ms=900000; give any of them)',
    },
    {
      flags: '--utterances <file>',
      description: 'labelled utterances (Analytics "add to utterances", editor suggestions)',
    },
    ...REDACTION_FLAGS,
    {
      flags: '--shutdown-timeout <ms>',
      description: 'on SIGTERM, how long turns in flight may finish',
      default: '10000',
    },
  ],
  run: ([tree], options, out) => serveCommand(tree, options, out),
});
/** `--widget-origin`, `--widget-secret-file`, `--widget-locale` and `--widget-without-api-key` as the server's `widget` option, or a usage error naming the flag. */
function widgetOptions(options: ServeCommandOptions): WidgetServerOptions | null {
  const origins = options.widgetOrigin ?? [];
  if (!origins.length) {
    const flag = options.widgetSecretFile
      ? '--widget-secret-file'
      : options.widgetLocale
        ? '--widget-locale'
        : options.widgetWithoutApiKey
          ? '--widget-without-api-key'
          : null;
    if (flag) throw usage(`${flag} needs --widget-origin <origin...>: the sites that embed the widget.`);
    return null;
  }
  for (const origin of origins) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || parsed.origin !== origin.replace(/\/$/, ''))
      throw usage(
        `--widget-origin ${origin} is not an origin: write the scheme, the host and the port only, e.g. https://shop.example.com.`,
      );
  }
  const settings = {
    ...(options.widgetLocale ? { locale: options.widgetLocale } : {}),
    ...(options.widgetWithoutApiKey ? { allowWithoutApiKey: true } : {}),
  };
  if (!options.widgetSecretFile) return { origins, ...settings };
  checkPrivateFile(options.widgetSecretFile, '--widget-secret-file');
  return { origins, identitySecret: readFileSync(options.widgetSecretFile, 'utf8').trim(), ...settings };
}

/** How often `--env` looks for a publish: `TREEAGENT_VERSION_POLL_MS`, default 2 s. */
function versionPollMs(): number {
  const value = Number(process.env.TREEAGENT_VERSION_POLL_MS);
  return Number.isFinite(value) && value > 0 ? value : VERSION_POLL_MS;
}

/**
 * The server's channels of `--channels`: the configured platforms, with the web chat and the
 * OpenAI-compatible endpoint unless the file turns them off (`"webChat": false`, `"openAiCompatible": false`).
 */
function serverChannelsOf(loaded: Awaited<ReturnType<typeof loadChannels>>): ChannelsOptions {
  return {
    channels: [
      ...(loaded.webChat === false ? [] : [webChat()]),
      ...(loaded.openAiCompatible === false ? [] : [openAiCompatible()]),
      ...loaded.channels,
    ],
    defaults: false,
  };
}
