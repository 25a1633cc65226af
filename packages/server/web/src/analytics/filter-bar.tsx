import type { ComponentChildren } from 'preact';
import { useT } from '../i18n/use-t';

/** The filter every analytics view shares: a range of UTC days and, optionally, one tree version. */
export interface RangeFilter {
  from?: string;
  to?: string;
  version?: string;
}

/** The range a page opens on: the last 30 days (UTC). */
export function defaultRange(now = new Date()): { from: string; to: string } {
  const day = 24 * 60 * 60 * 1000;
  return {
    from: new Date(now.getTime() - 29 * day).toISOString().slice(0, 10),
    to: now.toISOString().slice(0, 10),
  };
}

export interface FilterBarProps<T extends RangeFilter> {
  /** The form's id (`analytics-filter`, `review-filter`). */
  id: string;
  /** The filter being edited (applied on submit). */
  draft: T;
  onDraft: (draft: T) => void;
  onSubmit: () => void;
  /** The tree versions to choose from (a list); without them the version is typed. */
  versions?: readonly { treeVersion: string; turns: number }[];
  /** Fields of the page before the range (review: text, status, node). */
  before?: ComponentChildren;
  /** Fields of the page after the version (analytics: compare with). */
  after?: ComponentChildren;
  submitLabel: string;
}

/**
 * The filter bar of the Analytics and Review pages (docs/analytics.md): from, to and tree version,
 * with the page's own fields before or after them, applied together on submit.
 */
export function FilterBar<T extends RangeFilter>(props: FilterBarProps<T>) {
  const { draft, onDraft, versions } = props;
  const set = (patch: Partial<RangeFilter>) => onDraft({ ...draft, ...patch });
  const t = useT('analytics');
  return (
    <form
      id={props.id}
      class="filter-bar"
      onSubmit={(event) => {
        event.preventDefault();
        props.onSubmit();
      }}
    >
      {props.before}
      <label>
        {t('filter.from')}{' '}
        <input
          type="date"
          name="from"
          value={draft.from ?? ''}
          onInput={(event) => set({ from: event.currentTarget.value })}
        />
      </label>
      <label>
        {t('filter.to')}{' '}
        <input
          type="date"
          name="to"
          value={draft.to ?? ''}
          onInput={(event) => set({ to: event.currentTarget.value })}
        />
      </label>
      {versions ? (
        <label>
          {t('filter.version')}{' '}
          <select
            name="version"
            value={draft.version ?? ''}
            onChange={(event) => set({ version: event.currentTarget.value || (undefined as never) })}
          >
            <option value="">{t('filter.allVersions')}</option>
            {versions.map((version) => (
              <option key={version.treeVersion} value={version.treeVersion}>
                {t('filter.versionOption', {
                  version: version.treeVersion.slice(0, 12),
                  count: version.turns,
                })}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <label>
          {t('filter.version')}{' '}
          <input
            name="version"
            placeholder={t('filter.allVersions')}
            value={draft.version ?? ''}
            onInput={(event) => set({ version: event.currentTarget.value || (undefined as never) })}
          />
        </label>
      )}
      {props.after}
      <button type="submit" class="primary-button">
        {props.submitLabel}
      </button>
    </form>
  );
}
