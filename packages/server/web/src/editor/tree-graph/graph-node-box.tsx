import { formatDecimal, truncate } from '../../components/format';
import { useT } from '../../i18n/use-t';
import type { GraphNode } from '../document-model';
import { NODE_HEIGHT, NODE_WIDTH, type PlacedNode } from '../graph-layout';
import { flagMarks, heatColour, nodeTitle } from './graph-view';
import type { LabelMetrics } from './legible-labels';

/** Findings on a node, as badges. */
export interface NodeFindings {
  errors: number;
  warnings: number;
}

const TYPE_MARK: Record<string, string> = {
  root: 'root',
  agent: 'agent',
  emit: 'emit',
  query: 'query',
  llm: 'llm',
  switch: 'switch',
  guardrail: 'guard',
  empty: 'empty',
};

/**
 * One node of the graph: its box (heat-coloured when a message was routed), name and flags, type,
 * chunks and threshold, a badge of its findings, and ▾/▸ to fold its subtree. A pointer down starts
 * a drag (a click when it does not move).
 */
export function GraphNodeBox(props: {
  node: GraphNode;
  place: PlacedNode;
  /** Label sizes at the current zoom (never under 11 px on screen). */
  metrics: LabelMetrics;
  /** The state classes (`is-selected`, `is-path`, `is-dimmed`, …). */
  states: string[];
  similarity: number | undefined;
  findings: NodeFindings | undefined;
  /** Whether it has children, and whether they are folded. */
  fold: 'none' | 'open' | 'folded';
  onPointerDown(event: PointerEvent): void;
  onToggle(): void;
}) {
  const t = useT('editor');
  const { node, similarity, findings: found, metrics } = props;
  const chunks = Array.isArray(node.node.chunks) ? node.node.chunks.length : 0;
  const x = props.place.x - NODE_WIDTH / 2;
  const y = props.place.y - NODE_HEIGHT / 2;
  return (
    <g
      class={['graph-node', `type-${node.type}`, ...props.states].join(' ')}
      data-node-id={node.id}
      transform={`translate(${x} ${y})`}
      onPointerDown={(event) => {
        event.stopPropagation();
        props.onPointerDown(event);
      }}
    >
      <title>{nodeTitle(node, similarity)}</title>
      <rect
        class="graph-node-box"
        width={NODE_WIDTH}
        height={NODE_HEIGHT}
        rx={8}
        style={similarity !== undefined ? { fill: heatColour(similarity) } : undefined}
      />
      <rect class="graph-node-type" width={6} height={NODE_HEIGHT} rx={3} />
      <text x={14} y={metrics.nameY} class="graph-node-name" style={{ fontSize: `${metrics.nameSize}px` }}>
        {truncate(
          `${node.name ?? `${node.type} ${node.id}`} ${flagMarks(node.node)}`.trim(),
          metrics.nameChars,
        )}
      </text>
      {metrics.showMeta ? (
        <text x={14} y={metrics.metaY} class="graph-node-meta" style={{ fontSize: `${metrics.metaSize}px` }}>
          {truncate(
            `${TYPE_MARK[node.type] ?? node.type} #${node.id}${chunks ? ` · ${t('graph.chunks', { count: chunks })}` : ''}${typeof node.node.similarityThreshold === 'number' ? ` · ≥ ${node.node.similarityThreshold}` : ''}${similarity !== undefined ? ` · ${formatDecimal(similarity, 2)}` : ''}`,
            metrics.metaChars,
          )}
        </text>
      ) : null}
      {found && (found.errors || found.warnings) ? (
        <g
          class={`graph-badge ${found.errors ? 'is-error' : 'is-warning'}`}
          transform={`translate(${NODE_WIDTH - 12} 0)`}
        >
          <circle r={9} cx={0} cy={0} />
          <text x={0} y={4} text-anchor="middle">
            {found.errors || found.warnings}
          </text>
        </g>
      ) : null}
      {props.fold !== 'none' ? (
        // biome-ignore lint/a11y/useSemanticElements: SVG has no button element.
        <text
          class="graph-collapse"
          x={NODE_WIDTH - 4 - metrics.foldSize * 0.8}
          y={NODE_HEIGHT - 6}
          style={{ fontSize: `${metrics.foldSize}px` }}
          role="button"
          aria-label={t(props.fold === 'folded' ? 'graph.expandNode' : 'graph.collapseNode', { id: node.id })}
          onPointerDown={(event) => {
            event.stopPropagation();
            props.onToggle();
          }}
        >
          {props.fold === 'folded' ? '▸' : '▾'}
        </text>
      ) : null}
    </g>
  );
}
