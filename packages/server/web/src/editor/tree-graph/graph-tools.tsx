import { useT } from '../../i18n/use-t';
/** The graph's toolbar: search (Enter selects the first match), zoom, fit, and expand all when something is folded. */
export function GraphTools(props: {
  search: string;
  onSearch(search: string): void;
  matches: Set<number> | null;
  onFirstMatch(id: number): void;
  onZoom(factor: number): void;
  onFit(): void;
  /** Set when something is folded: unfolds everything. */
  onExpandAll: (() => void) | null;
}) {
  const { matches } = props;
  const t = useT('editor');
  return (
    <div class="graph-tools">
      <input
        id="graph-search"
        type="search"
        placeholder={t('graph.searchPlaceholder')}
        aria-label={t('graph.search')}
        value={props.search}
        onInput={(event) => props.onSearch((event.target as HTMLInputElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && matches?.size) props.onFirstMatch([...matches][0]!);
        }}
      />
      {matches ? <span class="graph-matches">{t('graph.found', { count: matches.size })}</span> : null}
      <button
        type="button"
        class="button-small"
        onClick={() => props.onZoom(1.2)}
        aria-label={t('graph.zoomIn')}
      >
        +
      </button>
      <button
        type="button"
        class="button-small"
        onClick={() => props.onZoom(1 / 1.2)}
        aria-label={t('graph.zoomOut')}
      >
        −
      </button>
      <button type="button" class="button-small" onClick={props.onFit}>
        {t('graph.fit')}
      </button>
      {props.onExpandAll ? (
        <button type="button" class="button-small" onClick={props.onExpandAll}>
          {t('graph.expandAll')}
        </button>
      ) : null}
    </div>
  );
}
