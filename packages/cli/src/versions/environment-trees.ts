import { type Tree, type TreeAgent, TreeAgentError } from '@treeagent/core';
import {
  assignVariant,
  type EnvironmentExperiment,
  type SessionTrees,
  type SessionUnit,
  type TreeVersion,
  type VersionStore,
} from '@treeagent/core/adapter';
import { type LoadedTree, loadTree } from '../load-tree.js';
import type { Output } from '../output.js';
import { checkEnvironment } from './environment-names.js';
import { fileContentOf } from './version-content.js';
import { versionFile } from './version-file.js';

/** How often a server following an environment looks for a publish, in milliseconds (`TREEAGENT_VERSION_POLL_MS`). */
export const VERSION_POLL_MS = 2000;

/** Trees of earlier versions kept for the sessions still on them (the agent bounds their runtimes). */
const KEPT_TREES = 16;

/**
 * What `treeagent serve --env <environment>` serves: the environment's current version to new
 * sessions, and to each session the version it started on (pinned in the version store on its
 * first turn, so it outlives a restart). `follow` switches new sessions to a version published
 * since, within a poll.
 */
export class EnvironmentTrees implements SessionTrees {
  readonly environment: string;
  readonly tree: string;
  readonly #store: VersionStore;
  readonly #treePath: string;
  readonly #config: { config?: string };
  readonly #out: Output;
  #current: { version: TreeVersion; loaded: LoadedTree };
  /** The environment's running experiment: new sessions are split between its versions. */
  #experiment: EnvironmentExperiment | null = null;
  readonly #others = new Map<string, Promise<Tree>>();

  private constructor(
    store: VersionStore,
    treePath: string,
    environment: string,
    tree: string,
    current: { version: TreeVersion; loaded: LoadedTree },
    config: { config?: string },
    out: Output,
  ) {
    this.#store = store;
    this.#treePath = treePath;
    this.environment = environment;
    this.tree = tree;
    this.#current = current;
    this.#config = config;
    this.#out = out;
  }

  /** The environment's current version of the tree at `treePath`, loaded; an error says how to publish one. */
  static async open(
    store: VersionStore,
    treePath: string,
    environment: string,
    config: { config?: string },
    out: Output,
  ): Promise<EnvironmentTrees> {
    checkEnvironment(environment);
    const { tree } = await fileContentOf(treePath, config);
    const served = await store.getEnvironment(tree, environment);
    const version = served?.versionId ? await store.getVersion(tree, served.versionId) : null;
    if (!version)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `--env ${environment}: nothing of "${tree}" is published there. Publish a version first: treeagent publish ${environment} ${treePath} -m "first release".`,
      );
    const loaded = await loadVersion(treePath, version, config);
    const trees = new EnvironmentTrees(store, treePath, environment, tree, { version, loaded }, config, out);
    trees.#experiment = served?.experiment ?? null;
    if (trees.#experiment)
      out.log(
        `${environment} runs the experiment "${trees.#experiment.name}": new sessions get ${splitOf(trees.#experiment)}, not only ${version.id}, until it ends.`,
      );
    return trees;
  }

  /** The current version's loaded tree (what the agent serves to new sessions). */
  get loaded(): LoadedTree {
    return this.#current.loaded;
  }

  get versionId(): string {
    return this.#current.version.id;
  }

  async treeFor(sessionId: string, session?: SessionUnit): Promise<Tree | null> {
    // In an experiment a new session gets its variant, split by its user when it has one (sticky:
    // the same user, the same variant in all their sessions), else by the session id.
    const current = this.#experiment
      ? assignVariant(this.#experiment.name, session?.userId ?? sessionId, this.#experiment.variants)
          .versionId
      : this.#current.version.id;
    const pinned = await this.#store.pinSession(this.tree, sessionId, current);
    if (pinned === this.#current.version.id) return null;
    try {
      return await this.#treeOf(pinned);
    } catch (error) {
      // Not silent: the session moves to the current version, and the log says why.
      this.#out.error(
        `Session ${sessionId} started on version ${pinned} of ${this.tree}, which cannot be loaded any more (${TreeAgentError.isInstance(error) ? error.message : String(error)}); it continues on ${this.#current.version.id}.`,
      );
      return null;
    }
  }

  /** The sessions were deleted (expired, or on request): their pinned versions go with them. */
  async forget(sessionIds: readonly string[]): Promise<void> {
    await this.#store.forgetSessions(sessionIds);
  }

  /**
   * Switches the agent's tree — the one new sessions get — when the environment moved: at once when
   * the store pushes moves (PostgreSQL), and by looking every `intervalMs` in any case (a missed
   * notification, SQLite). Returns the function that stops it.
   */
  follow(agent: TreeAgent, intervalMs = VERSION_POLL_MS): () => void {
    let running: Promise<unknown> | null = null;
    let again = false;
    const check = () => {
      if (running) {
        again = true;
        return;
      }
      running = this.refresh(agent).finally(() => {
        running = null;
        if (again) {
          again = false;
          check();
        }
      });
    };
    const timer = setInterval(check, intervalMs);
    timer.unref();
    // A store several processes share pushes each move (PostgreSQL's NOTIFY): switch at once.
    let stopListening: Promise<(() => Promise<void>) | null> = Promise.resolve(null);
    if (this.#store.onEnvironmentMoved)
      stopListening = this.#store
        .onEnvironmentMoved((tree, environment) => {
          if (tree === this.tree && environment === this.environment) check();
        })
        .catch((error: unknown) => {
          this.#out.error(
            `Not listening for publishes (${error instanceof Error ? error.message : String(error)}): checking every ${intervalMs} ms instead.`,
          );
          return null;
        });
    return () => {
      clearInterval(timer);
      void stopListening.then((stop) => stop?.());
    };
  }

  /**
   * Switches the agent to the environment's current version when it moved, and follows its
   * experiment starting or ending; resolves to whether the version moved. The log says what new
   * sessions get: while an experiment runs, its variants, whatever the environment's version.
   */
  async refresh(agent: TreeAgent): Promise<boolean> {
    try {
      const served = await this.#store.getEnvironment(this.tree, this.environment);
      const experiment = served?.experiment ?? null;
      const before = this.#experiment;
      this.#experiment = experiment;
      let moved: string | null = null;
      if (served?.versionId && served.versionId !== this.#current.version.id) {
        const version = await this.#store.getVersion(this.tree, served.versionId);
        if (version) {
          const loaded = await loadVersion(this.#treePath, version, this.#config);
          await agent.setTree(loaded.tree);
          const previous = this.#current;
          this.#current = { version, loaded };
          this.#others.set(previous.version.id, Promise.resolve(previous.loaded.tree));
          moved = previous.version.id;
        }
      }
      const current = this.#current.version.id;
      if (before && before.name !== experiment?.name)
        this.#out.log(`The experiment "${before.name}" of ${this.environment} ended.`);
      if (experiment && experiment.name !== before?.name)
        this.#out.log(
          `${this.environment} runs the experiment "${experiment.name}": new sessions get ${splitOf(experiment)}; sessions begun before keep theirs.`,
        );
      if (experiment && moved !== null)
        this.#out.log(
          `${this.environment}'s version is now ${current} of ${this.tree} (was ${moved}), but its experiment "${experiment.name}" still gives new sessions ${splitOf(experiment)}: ${current} reaches them when the experiment ends.`,
        );
      else if (!experiment && (moved !== null || before))
        this.#out.log(
          `${this.environment} now serves version ${current} of ${this.tree} to new sessions${moved === null ? '' : ` (was ${moved})`}; sessions begun before keep theirs.`,
        );
      return moved !== null;
    } catch (error) {
      this.#out.error(
        `Could not switch to the version published to ${this.environment}: ${TreeAgentError.isInstance(error) ? error.message : String(error)}. Still serving ${this.#current.version.id}.`,
      );
      return false;
    }
  }

  /** The tree of another version, loaded once and kept (the most recent `KEPT_TREES`). */
  #treeOf(id: string): Promise<Tree> {
    let tree = this.#others.get(id);
    if (tree) this.#others.delete(id);
    else
      tree = this.#store.getVersion(this.tree, id).then(async (version) => {
        if (!version) throw new TreeAgentError('INVALID_INPUT', `the version store has no version ${id}`);
        return (await loadVersion(this.#treePath, version, this.#config)).tree;
      });
    tree.catch(() => this.#others.delete(id));
    this.#others.set(id, tree);
    for (const key of this.#others.keys()) {
      if (this.#others.size <= KEPT_TREES) break;
      this.#others.delete(key);
    }
    return tree;
  }
}

/** An experiment's split, for the log: `3f2a9c01d4e7 50%, 8c1d0e2f4a6b 50%`. */
function splitOf(experiment: EnvironmentExperiment): string {
  return experiment.variants.map((variant) => `${variant.versionId} ${variant.percent}%`).join(', ');
}

/** Loads a stored version of the tree at `treePath` (its document with the callbacks on disk). */
async function loadVersion(
  treePath: string,
  version: TreeVersion,
  config: { config?: string },
): Promise<LoadedTree> {
  const file = await versionFile(treePath, version, config);
  try {
    return await loadTree(file.path, config);
  } finally {
    file.dispose();
  }
}
