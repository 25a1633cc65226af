import type { KnowledgePage, KnowledgeSource, SourceStore } from './source-store.js';

/** Knowledge sources in process memory: the reference implementation, lost on restart. */
export class InMemorySourceStore implements SourceStore {
  readonly #sources = new Map<string, KnowledgeSource>();
  readonly #pages = new Map<string, Map<string, KnowledgePage>>();

  async saveSource(source: KnowledgeSource): Promise<void> {
    this.#sources.set(source.id, copySource(source));
  }

  async getSource(id: string): Promise<KnowledgeSource | null> {
    const source = this.#sources.get(id);
    return source ? copySource(source) : null;
  }

  async listSources(): Promise<KnowledgeSource[]> {
    return [...this.#sources.values()]
      .sort(
        (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      )
      .map(copySource);
  }

  async deleteSource(id: string): Promise<void> {
    this.#sources.delete(id);
    this.#pages.delete(id);
  }

  async listPages(sourceId: string): Promise<KnowledgePage[]> {
    return [...(this.#pages.get(sourceId)?.values() ?? [])]
      .sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))
      .map((page) => ({ ...page }));
  }

  async savePages(
    sourceId: string,
    pages: readonly KnowledgePage[],
    removed: readonly string[],
  ): Promise<void> {
    const stored = this.#pages.get(sourceId) ?? new Map<string, KnowledgePage>();
    this.#pages.set(sourceId, stored);
    for (const url of removed) stored.delete(url);
    for (const page of pages) stored.set(page.url, { ...page });
  }
}

function copySource(source: KnowledgeSource): KnowledgeSource {
  return { ...source, options: structuredClone(source.options) };
}
