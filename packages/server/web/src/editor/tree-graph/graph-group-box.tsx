import { truncate } from '../../components/format';
import { useT } from '../../i18n/use-t';
import type { GraphGroup } from '../document-model';
import { NODE_HEIGHT, NODE_WIDTH, type PlacedCollapsedGroup, type PlacedGroup } from '../graph-layout';
import { groupLabel } from './graph-view';
import { groupLabelMetrics, type LabelMetrics } from './legible-labels';

/** A component drawn as a box around its nodes: its label (selects it) and ▾ to fold it. */
export function GraphGroupBox({
  group,
  scale,
  component,
  selected,
  onSelect,
  onToggle,
}: {
  group: PlacedGroup;
  /** The zoom: the label grows in the graph's units as it shrinks (never under 11 px on screen). */
  scale: number;
  component: GraphGroup | undefined;
  selected: boolean;
  onSelect(id: number): void;
  onToggle(id: number): void;
}) {
  const t = useT('editor');
  const label = groupLabelMetrics(scale, group.width);
  return (
    <g
      class={`graph-group${selected ? ' is-selected' : ''}${component?.instance ? ' is-instance' : ''}`}
      data-group-id={group.id}
    >
      <title>{groupLabel(component, group.id)}</title>
      <rect x={group.x} y={group.y} width={group.width} height={group.height} rx={10} />
      {/* biome-ignore lint/a11y/noStaticElementInteractions: SVG has no button; the component is also reachable by search and from the problems list. */}
      <text
        x={group.x + 10}
        y={group.y + 3 + label.size * 0.8}
        class="graph-group-label"
        style={{ fontSize: `${label.size}px` }}
        onClick={() => onSelect(group.id)}
      >
        {truncate(groupLabel(component, group.id), label.chars)}
      </text>
      {/* biome-ignore lint/a11y/useSemanticElements: SVG has no button element. */}
      <text
        class="graph-collapse graph-group-collapse"
        x={group.x + group.width - 4 - label.size}
        y={group.y + 3 + label.size * 0.8}
        style={{ fontSize: `${label.size}px` }}
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
  metrics,
  component,
  selected,
  onSelect,
  onToggle,
}: {
  box: PlacedCollapsedGroup;
  /** Label sizes at the current zoom. */
  metrics: LabelMetrics;
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
      <title>{groupLabel(component, box.id)}</title>
      <text x={12} y={metrics.nameY} class="graph-node-name" style={{ fontSize: `${metrics.nameSize}px` }}>
        {truncate(groupLabel(component, box.id), metrics.nameChars)}
      </text>
      {metrics.showMeta ? (
        <text x={12} y={metrics.metaY} class="graph-node-meta" style={{ fontSize: `${metrics.metaSize}px` }}>
          {truncate(t('graph.inside', { count: box.count }), metrics.metaChars)}
        </text>
      ) : null}
      {/* biome-ignore lint/a11y/useSemanticElements: SVG has no button element. */}
      <text
        class="graph-collapse"
        x={NODE_WIDTH - 4 - metrics.foldSize * 0.8}
        y={NODE_HEIGHT - 6}
        style={{ fontSize: `${metrics.foldSize}px` }}
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
