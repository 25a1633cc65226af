import { truncate } from '../../components/format';
import { useT } from '../../i18n/use-t';
import type { GraphGroup } from '../document-model';
import { NODE_HEIGHT, NODE_WIDTH, type PlacedCollapsedGroup, type PlacedGroup } from '../graph-layout';
import { groupLabel } from './graph-view';

/** A component drawn as a box around its nodes: its label (selects it) and ▾ to fold it. */
export function GraphGroupBox({
  group,
  component,
  selected,
  onSelect,
  onToggle,
}: {
  group: PlacedGroup;
  component: GraphGroup | undefined;
  selected: boolean;
  onSelect(id: number): void;
  onToggle(id: number): void;
}) {
  const t = useT('editor');
  return (
    <g
      class={`graph-group${selected ? ' is-selected' : ''}${component?.instance ? ' is-instance' : ''}`}
      data-group-id={group.id}
    >
      <title>{groupLabel(component, group.id)}</title>
      <rect x={group.x} y={group.y} width={group.width} height={group.height} rx={10} />
      {/* biome-ignore lint/a11y/noStaticElementInteractions: SVG has no button; the component is also reachable by search and from the problems list. */}
      <text x={group.x + 10} y={group.y + 14} class="graph-group-label" onClick={() => onSelect(group.id)}>
        {truncate(groupLabel(component, group.id), Math.max(12, Math.floor((group.width - 34) / 6)))}
      </text>
      {/* biome-ignore lint/a11y/useSemanticElements: SVG has no button element. */}
      <text
        class="graph-collapse graph-group-collapse"
        x={group.x + group.width - 16}
        y={group.y + 14}
        role="button"
        aria-label={t('graph.collapseComponent', { id: group.id })}
        onPointerDown={(event) => {
          event.stopPropagation();
          onToggle(group.id);
        }}
      >
        ▾
      </text>
    </g>
  );
}

/** A folded component: one box saying how many nodes it holds, and ▸ to unfold it. */
export function GraphFoldedGroup({
  box,
  component,
  selected,
  onSelect,
  onToggle,
}: {
  box: PlacedCollapsedGroup;
  component: GraphGroup | undefined;
  selected: boolean;
  onSelect(id: number): void;
  onToggle(id: number): void;
}) {
  const t = useT('editor');
  const x = box.x - NODE_WIDTH / 2;
  const y = box.y - NODE_HEIGHT / 2;
  return (
    <g
      class={`graph-folded${selected ? ' is-selected' : ''}`}
      data-folded-group-id={box.id}
      transform={`translate(${x} ${y})`}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: SVG has no button; the component is also reachable from the problems list. */}
      <rect
        class="graph-folded-box"
        width={NODE_WIDTH}
        height={NODE_HEIGHT}
        rx={10}
        onClick={() => onSelect(box.id)}
      />
      <text x={12} y={20} class="graph-node-name">
        {truncate(groupLabel(component, box.id), 26)}
      </text>
      <text x={12} y={38} class="graph-node-meta">
        {t('graph.inside', { count: box.count })}
      </text>
      {/* biome-ignore lint/a11y/useSemanticElements: SVG has no button element. */}
      <text
        class="graph-collapse"
        x={NODE_WIDTH - 16}
        y={NODE_HEIGHT - 8}
        role="button"
        aria-label={t('graph.expandComponent', { id: box.id })}
        onPointerDown={(event) => {
          event.stopPropagation();
          onToggle(box.id);
        }}
      >
        ▸
      </text>
    </g>
  );
}
