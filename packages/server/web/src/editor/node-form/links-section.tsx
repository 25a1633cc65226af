import type { TreeDocumentNode } from '@treeagent/core/client';
import { useT } from '../../i18n/use-t';
import { inputValue, isLinkName, text, withEntry } from './node-form-model';

/** A node's named links (`links.<name>` in code): each one's target, removal, and a new one by name. */
export function LinksSection({
  links,
  nodes,
  onLinks,
}: {
  links: Record<string, number>;
  /** The document's nodes, the possible targets (a new link points at the first). */
  nodes: readonly TreeDocumentNode[];
  onLinks(next: Record<string, number> | undefined): void;
}) {
  const t = useT('editor');
  return (
    <section class="form-section">
      <h3>{t('links.title')}</h3>
      {Object.entries(links).map(([name, target]) => (
        <div key={name} class="link-row">
          <code>{name}</code> →
          <select
            value={String(target)}
            onChange={(event) => onLinks({ ...links, [name]: Number(inputValue(event)) })}
          >
            {nodes.map((other) => (
              <option key={other.id} value={String(other.id)}>
                #{other.id} {text(other.name)}
              </option>
            ))}
          </select>
          <button
            type="button"
            class="button-icon"
            aria-label={t('links.remove', { name })}
            onClick={() => onLinks(withEntry(links, name, undefined))}
          >
            ×
          </button>
        </div>
      ))}
      <input
        id="new-link"
        placeholder={t('links.placeholder')}
        onKeyDown={(event) => {
          const name = inputValue(event).trim();
          if (event.key === 'Enter' && isLinkName(name)) {
            event.preventDefault();
            onLinks({ ...links, [name]: nodes[0]!.id });
            (event.target as HTMLInputElement).value = '';
          }
        }}
      />
    </section>
  );
}
