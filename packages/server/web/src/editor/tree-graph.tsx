import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useT } from '../i18n/use-t';
import type { GraphGroup, GraphNode } from './document-model';
import { layoutGraph } from './graph-layout';
import type { DropSide } from './sibling-order';
import { DropIndicator } from './tree-graph/drop-indicator';
import { dropZone } from './tree-graph/drop-zone';
import { GraphFoldedGroup, GraphGroupBox } from './tree-graph/graph-group-box';
import { GraphNodeBox, type NodeFindings } from './tree-graph/graph-node-box';
import { GraphTools } from './tree-graph/graph-tools';
import { nodeAt, pathEdgeKeys, searchMatches, toggled } from './tree-graph/graph-view';
import { legibleFold } from './tree-graph/legible-fit';
import { labelMetrics } from './tree-graph/legible-labels';
import { useGraphView } from './tree-graph/use-graph-view';

export type { NodeFindings };

export interface TreeGraphProps {
  nodes: GraphNode[];
  groups: Map<number, GraphGroup>;
  selected: number | null;
  onSelect(id: number): void;
  /** Nodes of the routed message's path, in order (highlighted). */
  path: number[];
  /** Similarity of the routed message to each node's best chunk (the heat map), or `null`. */
  heat: Map<number, number> | null;
  findings: Map<number, NodeFindings>;
  /** A node dropped on the middle of another: move it (and its subtree) there. */
  onReparent(id: number, parentId: number): void;
  /** A node dropped on the left or right edge of another: put it before or after it among its siblings. */
  onReorder?(id: number, targetId: number, side: DropSide): void;
  /** A node dropped where there is no node (refused, with the reason). */
  onDropNowhere?(id: number): void;
}

/**
 * The effective tree as a graph laid out by dagre: components as group boxes, agents and the
 * primary agent marked, zoom (wheel, buttons), pan (drag the background), search (dims the rest,
 * Enter centres the first match), collapse (the ▾ of a node), the routed path and the heat map,
 * problem badges, and drag a node onto another to re-parent it. The pieces are in `tree-graph/`:
 * the view's arithmetic (`graph-view.ts`, pure), its hook, the toolbar, group and node boxes.
 */
export function TreeGraph(props: TreeGraphProps) {
  const t = useT('editor');
  const { nodes, groups, selected, path, heat, findings } = props;
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const [collapsedGroups, setCollapsedGroups] = useState<Set<number>>(new Set());
  const [search, setSearch] = useState('');
  const [drag, setDrag] = useState<{ id: number; x: number; y: number; moved: boolean } | null>(null);
  const [pan, setPan] = useState<{ x: number; y: number; viewX: number; viewY: number } | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const placed = useMemo(
    () => layoutGraph(nodes, collapsed, { groups, collapsedGroups }),
    [nodes, collapsed, groups, collapsedGroups],
  );
  const { view, setView, fit, fitAfterLayout, zoom, centre, toGraph } = useGraphView(svg, placed);
  /** Fit, legibly: folds the levels that would make the labels too small (docs/editor.md, *The graph*). */
  const fitLegibly = () => {
    const canvas = svg.current?.getBoundingClientRect();
    if (!canvas) return fit();
    setCollapsed(legibleFold(nodes, canvas, { groups, collapsedGroups }));
    fitAfterLayout();
  };
  const firstFit = useRef(false);
  // Once, when the graph first has nodes.
  useEffect(() => {
    if (firstFit.current || !nodes.length) return;
    firstFit.current = true;
    fitLegibly();
  }, [nodes.length]);
  const metrics = labelMetrics(view.scale);
  const toggleGroup = (id: number) => setCollapsedGroups((current) => toggled(current, id));
  const byId = useMemo(() => new Map(nodes.map((node) => [node.id, node])), [nodes]);
  const hasChildren = useMemo(() => new Set(nodes.map((node) => node.parentId)), [nodes]);
  const onPath = new Set(path);
  const pathEdges = pathEdgeKeys(path);
  const matches = searchMatches(nodes, search);

  return (
    <div class="graph">
      <GraphTools
        search={search}
        onSearch={setSearch}
        matches={matches}
        onFirstMatch={(id) => {
          props.onSelect(id);
          centre(id);
        }}
        onZoom={(factor) => zoom(factor)}
        onFit={fitLegibly}
        onExpandAll={
          collapsed.size || collapsedGroups.size
            ? () => {
                setCollapsed(new Set());
                setCollapsedGroups(new Set());
              }
            : null
        }
      />
      <svg
        ref={svg}
        id="tree-graph"
        class={`graph-canvas${pan ? ' is-panning' : ''}`}
        role="img"
        aria-label={t('graph.label')}
        onWheel={(event) => {
          event.preventDefault();
          const box = svg.current!.getBoundingClientRect();
          zoom(event.deltaY < 0 ? 1.1 : 1 / 1.1, { x: event.clientX - box.left, y: event.clientY - box.top });
        }}
        onPointerDown={(event) => {
          if ((event.target as Element).closest('.graph-node')) return;
          setPan({ x: event.clientX, y: event.clientY, viewX: view.x, viewY: view.y });
        }}
        onPointerMove={(event) => {
          if (pan)
            setView((current) => ({
              ...current,
              x: pan.viewX + event.clientX - pan.x,
              y: pan.viewY + event.clientY - pan.y,
            }));
          else if (drag) {
            const point = toGraph(event);
            const moved = drag.moved || Math.hypot(point.x - drag.x, point.y - drag.y) > 6;
            setDrag({ ...drag, x: point.x, y: point.y, moved });
          }
        }}
        onPointerUp={(event) => {
          if (pan) setPan(null);
          if (drag) {
            if (drag.moved) {
              const point = toGraph(event);
              const target = nodeAt(placed.nodes.values(), point, drag.id);
              const zone = target ? dropZone(target, point) : null;
              if (!target) props.onDropNowhere?.(drag.id);
              else if (zone === 'inside') props.onReparent(drag.id, target.id);
              else if (zone) props.onReorder?.(drag.id, target.id, zone);
            } else props.onSelect(drag.id);
            setDrag(null);
          }
        }}
        onPointerLeave={() => {
          setPan(null);
          setDrag(null);
        }}
      >
        <g transform={`translate(${view.x} ${view.y}) scale(${view.scale})`}>
          {placed.groups.map((group) => (
            <GraphGroupBox
              key={`g${group.id}`}
              group={group}
              scale={view.scale}
              component={groups.get(group.id)}
              selected={selected === group.id}
              onSelect={props.onSelect}
              onToggle={toggleGroup}
            />
          ))}
          {placed.collapsedGroups.map((box) => (
            <GraphFoldedGroup
              key={`c${box.id}`}
              box={box}
              metrics={metrics}
              component={groups.get(box.id)}
              selected={selected === box.id}
              onSelect={props.onSelect}
              onToggle={toggleGroup}
            />
          ))}
          {placed.edges.map((edge) => (
            <polyline
              key={`${edge.from}-${edge.to}`}
              class={`graph-edge${pathEdges.has(`${edge.from}-${edge.to}`) ? ' is-path' : ''}`}
              points={edge.points.map((point) => `${point.x},${point.y}`).join(' ')}
            />
          ))}
          {[...placed.nodes.values()].map((place) => {
            const node = byId.get(place.id)!;
            return (
              <GraphNodeBox
                key={node.id}
                node={node}
                place={place}
                metrics={metrics}
                states={[
                  selected === node.id ? 'is-selected' : '',
                  onPath.has(node.id) ? 'is-path' : '',
                  matches && !matches.has(node.id) ? 'is-dimmed' : '',
                  matches?.has(node.id) ? 'is-match' : '',
                  drag?.moved && drag.id === node.id ? 'is-dragged' : '',
                  node.instance ? 'is-instance' : '',
                ]}
                similarity={heat?.get(node.id)}
                findings={findings.get(node.id)}
                fold={hasChildren.has(node.id) ? (collapsed.has(node.id) ? 'folded' : 'open') : 'none'}
                onPointerDown={(event) => {
                  const point = toGraph(event);
                  setDrag({ id: node.id, x: point.x, y: point.y, moved: false });
                }}
                onToggle={() => setCollapsed((current) => toggled(current, node.id))}
              />
            );
          })}
          <DropIndicator drag={drag} nodes={placed.nodes} />
        </g>
      </svg>
      {heat ? (
        <div class="graph-legend" title={t('graph.heatTitle')}>
          <span>{t('graph.far')}</span>
          <span class="graph-legend-scale" />
          <span>{t('graph.close')}</span>
        </div>
      ) : null}
    </div>
  );
}
