import { TreeAgentError } from '../errors/tree-agent-error.js';
import type {
  EnvironmentChange,
  EnvironmentExperiment,
  PublishGate,
  TreeEnvironment,
  TreeVersion,
  VersionStore,
} from './version-store.js';
import { NO_GATE } from './version-store.js';

/** Versions and environments in process memory: the reference implementation, lost on restart. */
export class InMemoryVersionStore implements VersionStore {
  readonly #versions: TreeVersion[] = [];
  readonly #environments = new Map<string, TreeEnvironment>();
  readonly #history = new Map<string, EnvironmentChange[]>();
  readonly #sessions = new Map<string, string>();

  async addVersion(version: TreeVersion): Promise<{ version: TreeVersion; created: boolean }> {
    const stored = this.#versions.find((each) => each.tree === version.tree && each.id === version.id);
    if (stored) return { version: { ...stored }, created: false };
    this.#versions.push({ ...version });
    return { version: { ...version }, created: true };
  }

  async getVersion(tree: string, id: string): Promise<TreeVersion | null> {
    const stored = this.#versions.find((each) => each.tree === tree && each.id === id);
    return stored ? { ...stored } : null;
  }

  async listVersions(tree: string): Promise<TreeVersion[]> {
    return this.#versions
      .filter((each) => each.tree === tree)
      .reverse()
      .map((each) => ({ ...each }));
  }

  async getEnvironment(tree: string, name: string): Promise<TreeEnvironment | null> {
    const stored = this.#environments.get(key(tree, name));
    return stored ? copyEnvironment(stored) : null;
  }

  async listEnvironments(tree: string): Promise<TreeEnvironment[]> {
    return [...this.#environments.values()]
      .filter((each) => each.tree === tree)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map(copyEnvironment);
  }

  async setGate(tree: string, name: string, gate: PublishGate): Promise<void> {
    const stored = this.#environments.get(key(tree, name));
    this.#environments.set(key(tree, name), {
      tree,
      name,
      versionId: stored?.versionId ?? null,
      gate: { ...gate },
      experiment: stored?.experiment ?? null,
    });
  }

  async setExperiment(tree: string, name: string, experiment: EnvironmentExperiment | null): Promise<void> {
    const stored = this.#environments.get(key(tree, name));
    this.#environments.set(key(tree, name), {
      tree,
      name,
      versionId: stored?.versionId ?? null,
      gate: stored?.gate ?? { ...NO_GATE },
      experiment: experiment ? structuredClone(experiment) : null,
    });
  }

  async moveEnvironment(tree: string, change: EnvironmentChange): Promise<void> {
    if (!(await this.getVersion(tree, change.versionId)))
      throw new TreeAgentError(
        'INVALID_INPUT',
        `The tree "${tree}" has no version "${change.versionId}": list them with treeagent versions.`,
      );
    const stored = this.#environments.get(key(tree, change.environment));
    this.#environments.set(key(tree, change.environment), {
      tree,
      name: change.environment,
      versionId: change.versionId,
      gate: stored?.gate ?? { ...NO_GATE },
      experiment: stored?.experiment ?? null,
    });
    const history = this.#history.get(key(tree, change.environment)) ?? [];
    history.push(structuredClone(change));
    this.#history.set(key(tree, change.environment), history);
  }

  async history(tree: string, environment: string): Promise<EnvironmentChange[]> {
    return structuredClone(this.#history.get(key(tree, environment)) ?? []);
  }

  async pinSession(tree: string, sessionId: string, versionId: string): Promise<string> {
    const pinned = this.#sessions.get(key(tree, sessionId));
    if (pinned !== undefined) return pinned;
    this.#sessions.set(key(tree, sessionId), versionId);
    return versionId;
  }

  async sessionVersion(tree: string, sessionId: string): Promise<string | null> {
    return this.#sessions.get(key(tree, sessionId)) ?? null;
  }

  async forgetSessions(sessionIds: readonly string[]): Promise<void> {
    const forgotten = new Set(sessionIds);
    for (const pinned of [...this.#sessions.keys()])
      if (forgotten.has((JSON.parse(pinned) as [string, string])[1])) this.#sessions.delete(pinned);
  }
}

function key(tree: string, name: string): string {
  return JSON.stringify([tree, name]);
}

function copyEnvironment(environment: TreeEnvironment): TreeEnvironment {
  return {
    ...environment,
    gate: { ...environment.gate },
    experiment: structuredClone(environment.experiment),
  };
}
