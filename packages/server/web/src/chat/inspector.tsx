import type { RefObject } from 'preact';
import { useApp } from '../app/app-context';
import { truncate } from '../components/format';
import { Icon } from '../components/icon';
import { TurnDebug } from '../debug/turn-debug';
import { useT } from '../i18n/use-t';
import { TreePanel } from '../tree/tree-panel';
import type { NodeSelection, TreeHighlight } from '../tree/tree-view';
import type { Turn } from './turn-model';

/** The inspector's tabs. */
export type InspectorTab = 'debug' | 'tree';

/** The side panel of the chat: the debug view of a turn (debug mode) and the tree. */
export function Inspector(props: {
  tab: InspectorTab | null;
  panel: RefObject<HTMLElement | null>;
  turns: readonly Turn[];
  inspected: Turn | null;
  highlight: TreeHighlight;
  pathLegend: string;
  selection: NodeSelection | null;
  onTab(tab: InspectorTab): void;
  onClose(): void;
  onInspect(turn: Turn): void;
  onNode(id: number): void;
  onSelect(id: number): void;
  onRoute(path: number[]): void;
}) {
  const { debug } = useApp();
  const t = useT('chat');
  const { tab } = props;
  const tabs: InspectorTab[] = debug ? ['debug', 'tree'] : ['tree'];
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      props.onClose();
      return;
    }
    const target = event.target as HTMLElement;
    if (target.getAttribute('role') === 'tab' && (event.key === 'ArrowRight' || event.key === 'ArrowLeft')) {
      const position = tabs.indexOf(target.id.replace('tab-', '') as InspectorTab);
      const next = tabs[(position + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length]!;
      props.onTab(next);
      document.getElementById(`tab-${next}`)?.focus();
    }
  };
  const selectable = props.turns.map((turn, index) => ({ turn, index })).filter(({ turn }) => !turn.restored);
  return (
    <aside
      id="side"
      class="side"
      aria-label={t('inspector.label')}
      hidden={tab === null}
      ref={props.panel}
      onKeyDown={onKeyDown}
    >
      <div class="side-tabs" role="tablist" aria-label={t('inspector.views')}>
        <button
          id="tab-debug"
          type="button"
          role="tab"
          aria-controls="panel-debug"
          aria-selected={tab === 'debug' ? 'true' : 'false'}
          tabIndex={tab === 'debug' ? 0 : -1}
          hidden={!debug}
          onClick={() => props.onTab('debug')}
        >
          {t('inspector.turnDebug')}
        </button>
        <button
          id="tab-tree"
          type="button"
          role="tab"
          aria-controls="panel-tree"
          aria-selected={tab === 'tree' ? 'true' : 'false'}
          tabIndex={tab === 'tree' ? 0 : -1}
          onClick={() => props.onTab('tree')}
        >
          {t('developer.tree')}
        </button>
        <button
          id="side-close"
          type="button"
          class="icon-button side-close"
          title={t('inspector.closeTitle')}
          onClick={props.onClose}
        >
          <Icon name="close" />
          <span class="sr-only">{t('inspector.close')}</span>
        </button>
      </div>
      {debug ? (
        <section
          id="panel-debug"
          class="panel panel-debug"
          role="tabpanel"
          aria-labelledby="tab-debug"
          hidden={tab !== 'debug'}
        >
          <div class="panel-toolbar">
            <label for="turn-select">{t('inspector.turn')}</label>
            <select
              id="turn-select"
              disabled={selectable.length === 0}
              value={props.inspected ? String(props.turns.indexOf(props.inspected)) : ''}
              onChange={(event) => {
                const turn = props.turns[Number(event.currentTarget.value)];
                if (turn) props.onInspect(turn);
              }}
            >
              {selectable.map(({ turn, index }) => (
                <option key={turn.key} value={String(index)}>
                  {t('inspector.turnOption', { number: turn.number, text: truncate(turn.user.text, 40) })}
                </option>
              ))}
            </select>
          </div>
          <div id="debug-content" class="debug-content">
            {props.inspected ? (
              <TurnDebug turn={props.inspected} onNode={props.onNode} />
            ) : (
              <p class="empty-note">{t('inspector.empty')}</p>
            )}
          </div>
        </section>
      ) : null}
      <section
        id="panel-tree"
        class="panel panel-tree"
        role="tabpanel"
        aria-labelledby="tab-tree"
        hidden={tab !== 'tree'}
      >
        <TreePanel
          highlight={props.highlight}
          pathLegend={props.pathLegend}
          selection={props.selection}
          onSelect={props.onSelect}
          onRoute={props.onRoute}
        />
      </section>
    </aside>
  );
}
