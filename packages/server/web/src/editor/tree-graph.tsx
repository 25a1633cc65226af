import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { GraphGroup, GraphNode } from './document-model';
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH } from './graph-layout';

/** Findings on a node, as badges. */
export interface NodeFindings {
  errors: number;
  warnings: number;
}

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
  /** A node dropped on another: move it (and its subtree) there. */
  onReparent(id: number, parentId: number): void;
}

interface View {
  scale: number;
  x: number;
  y: number;
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

/** Heat from cold (far from the message) to hot (close): a colour for a similarity in [-1, 1]. */
export function heatColour(similarity: number): string {
  const t = Math.max(0, Math.min(1, similarity));
  return `hsl(${Math.round(220 - 220 * t)} 85% ${Math.round(92 - 38 * t)}%)`;
}

/**
 * The effective tree as a graph laid out by dagre: components as group boxes, agents and the
 * primary agent marked, zoom (wheel, buttons), pan (drag the background), search (dims the rest,
 * Enter centres the first match), collapse (the ▾ of a node), the routed path and the heat map,
 * problem badges, and drag a node onto another to re-parent it.
 */
export function TreeGraph(props: TreeGraphProps) {
  const { nodes, groups, selected, path, heat, findings } = props;
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set());
  const [collapsedGroups, setCollapsedGroups] = useState<Set<number>>(new Set());
  const [search, setSearch] = useState('');
  const [view, setView] = useState<View>({ scale: 1, x: 0, y: 0 });
  const [drag, setDrag] = useState<{ id: number; x: number; y: number; moved: boolean } | null>(null);
  const [pan, setPan] = useState<{ x: number; y: number; viewX: number; viewY: number } | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  // The view is fitted to the graph when it first shows and whenever nodes appear or disappear.
  const fitted = useRef(0);
  const placed = useMemo(
    () => layoutGraph(nodes, collapsed, { groups, collapsedGroups }),
    [nodes, collapsed, groups, collapsedGroups],
  );
  const toggleGroup = (id: number) =>
    setCollapsedGroups((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const byId = useMemo(() => new Map(nodes.map((node) => [node.id, node])), [nodes]);
  const hasChildren = useMemo(() => new Set(nodes.map((node) => node.parentId)), [nodes]);
  const onPath = new Set(path);
  const pathEdges = new Set(path.slice(1).map((id, index) => `${path[index]}-${id}`));
  const query = search.trim().toLowerCase();
  const matches = query
    ? new Set(
        nodes
          .filter((node) =>
            `${node.id} ${node.name ?? ''} ${node.type} ${JSON.stringify(node.node.chunks ?? [])}`
              .toLowerCase()
              .includes(query),
          )
          .map((node) => node.id),
      )
    : null;

  const fit = () => {
    const box = svg.current?.getBoundingClientRect();
    if (!box || !placed.width) return;
    const scale = Math.min(1.2, (box.width - 24) / placed.width, (box.height - 24) / placed.height);
    setView({ scale, x: (box.width - placed.width * scale) / 2, y: 12 });
  };
  // …and when the canvas changes size (the routing panel grows, the window is resized).
  const fitRef = useRef(fit);
  fitRef.current = fit;
  useEffect(() => {
    const canvas = svg.current;
    if (!canvas || typeof ResizeObserver === 'undefined') return;
    let last = '';
    const observer = new ResizeObserver(([entry]) => {
      const size = `${Math.round(entry?.contentRect.width ?? 0)}x${Math.round(entry?.contentRect.height ?? 0)}`;
      if (size !== last) {
        last = size;
        fitRef.current();
      }
    });
    observer.observe(canvas);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    const boxes = placed.nodes.size + placed.collapsedGroups.length;
    if (boxes && fitted.current !== boxes) {
      fitted.current = boxes;
      fit();
    }
  });
  const centre = (id: number) => {
    const node = placed.nodes.get(id);
    const box = svg.current?.getBoundingClientRect();
    if (!node || !box) return;
    setView((current) => ({
      ...current,
      x: box.width / 2 - node.x * current.scale,
      y: box.height / 3 - node.y * current.scale,
    }));
  };
  const zoom = (factor: number, at?: { x: number; y: number }) => {
    const box = svg.current?.getBoundingClientRect();
    const point = at ?? { x: (box?.width ?? 0) / 2, y: (box?.height ?? 0) / 2 };
    setView((current) => {
      const scale = Math.max(0.2, Math.min(3, current.scale * factor));
      const ratio = scale / current.scale;
      return {
        scale,
        x: point.x - (point.x - current.x) * ratio,
        y: point.y - (point.y - current.y) * ratio,
      };
    });
  };
  const toGraph = (event: PointerEvent) => {
    const box = svg.current!.getBoundingClientRect();
    return {
      x: (event.clientX - box.left - view.x) / view.scale,
      y: (event.clientY - box.top - view.y) / view.scale,
    };
  };
  const nodeAt = (point: { x: number; y: number }, except: number) =>
    [...placed.nodes.values()].find(
      (node) =>
        node.id !== except &&
        Math.abs(node.x - point.x) <= NODE_WIDTH / 2 &&
        Math.abs(node.y - point.y) <= NODE_HEIGHT / 2,
    );

  return (
    <div class="graph">
      <div class="graph-tools">
        <input
          id="graph-search"
          type="search"
          placeholder="Search nodes (name, id, chunk)…"
          aria-label="Search nodes"
          value={search}
          onInput={(event) => setSearch((event.target as HTMLInputElement).value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && matches?.size) {
              const first = [...matches][0]!;
              props.onSelect(first);
              centre(first);
            }
          }}
        />
        {matches ? <span class="graph-matches">{matches.size} found</span> : null}
        <button type="button" class="button-small" onClick={() => zoom(1.2)} aria-label="Zoom in">
          +
        </button>
        <button type="button" class="button-small" onClick={() => zoom(1 / 1.2)} aria-label="Zoom out">
          −
        </button>
        <button type="button" class="button-small" onClick={fit}>
          Fit
        </button>
        {collapsed.size || collapsedGroups.size ? (
          <button
            type="button"
            class="button-small"
            onClick={() => {
              setCollapsed(new Set());
              setCollapsedGroups(new Set());
            }}
          >
            Expand all
          </button>
        ) : null}
      </div>
      <svg
        ref={svg}
        id="tree-graph"
        class={`graph-canvas${pan ? ' is-panning' : ''}`}
        role="img"
        aria-label="The tree as a graph"
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
              const target = nodeAt(toGraph(event), drag.id);
              if (target) props.onReparent(drag.id, target.id);
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
          {placed.groups.map((group) => {
            const component = groups.get(group.id);
            return (
              <g
                key={`g${group.id}`}
                class={`graph-group${selected === group.id ? ' is-selected' : ''}${component?.instance ? ' is-instance' : ''}`}
                data-group-id={group.id}
              >
                <title>{groupLabel(component, group.id)}</title>
                <rect x={group.x} y={group.y} width={group.width} height={group.height} rx={10} />
                {/* biome-ignore lint/a11y/noStaticElementInteractions: SVG has no button; the component is also reachable by search and from the problems list. */}
                <text
                  x={group.x + 10}
                  y={group.y + 14}
                  class="graph-group-label"
                  onClick={() => props.onSelect(group.id)}
                >
                  {truncate(
                    groupLabel(component, group.id),
                    Math.max(12, Math.floor((group.width - 34) / 6)),
                  )}
                </text>
                {/* biome-ignore lint/a11y/useSemanticElements: SVG has no button element. */}
                <text
                  class="graph-collapse graph-group-collapse"
                  x={group.x + group.width - 16}
                  y={group.y + 14}
                  role="button"
                  aria-label={`Collapse component ${group.id}`}
                  onPointerDown={(event) => {
                    event.stopPropagation();
                    toggleGroup(group.id);
                  }}
                >
                  ▾
                </text>
              </g>
            );
          })}
          {placed.collapsedGroups.map((box) => {
            const component = groups.get(box.id);
            const x = box.x - NODE_WIDTH / 2;
            const y = box.y - NODE_HEIGHT / 2;
            return (
              <g
                key={`c${box.id}`}
                class={`graph-folded${selected === box.id ? ' is-selected' : ''}`}
                data-folded-group-id={box.id}
                transform={`translate(${x} ${y})`}
              >
                {/* biome-ignore lint/a11y/noStaticElementInteractions: SVG has no button; the component is also reachable from the problems list. */}
                <rect
                  class="graph-folded-box"
                  width={NODE_WIDTH}
                  height={NODE_HEIGHT}
                  rx={10}
                  onClick={() => props.onSelect(box.id)}
                />
                <text x={12} y={20} class="graph-node-name">
                  {truncate(groupLabel(component, box.id), 26)}
                </text>
                <text x={12} y={38} class="graph-node-meta">
                  {box.count} node{box.count === 1 ? '' : 's'} inside
                </text>
                {/* biome-ignore lint/a11y/useSemanticElements: SVG has no button element. */}
                <text
                  class="graph-collapse"
                  x={NODE_WIDTH - 16}
                  y={NODE_HEIGHT - 8}
                  role="button"
                  aria-label={`Expand component ${box.id}`}
                  onPointerDown={(event) => {
                    event.stopPropagation();
                    toggleGroup(box.id);
                  }}
                >
                  ▸
                </text>
              </g>
            );
          })}
          {placed.edges.map((edge) => (
            <polyline
              key={`${edge.from}-${edge.to}`}
              class={`graph-edge${pathEdges.has(`${edge.from}-${edge.to}`) ? ' is-path' : ''}`}
              points={edge.points.map((point) => `${point.x},${point.y}`).join(' ')}
            />
          ))}
          {[...placed.nodes.values()].map((place) => {
            const node = byId.get(place.id)!;
            const found = findings.get(node.id);
            const similarity = heat?.get(node.id);
            const classes = [
              'graph-node',
              `type-${node.type}`,
              selected === node.id ? 'is-selected' : '',
              onPath.has(node.id) ? 'is-path' : '',
              matches && !matches.has(node.id) ? 'is-dimmed' : '',
              matches?.has(node.id) ? 'is-match' : '',
              drag?.moved && drag.id === node.id ? 'is-dragged' : '',
              node.instance ? 'is-instance' : '',
            ].join(' ');
            const flags = [
              node.node.isPrimary ? '★' : '',
              node.node.isBlocking ? '⊘' : '',
              node.node.isAnchor ? '⚓' : '',
              node.node.isMute ? '◌' : '',
            ].join('');
            const chunks = Array.isArray(node.node.chunks) ? node.node.chunks.length : 0;
            const x = place.x - NODE_WIDTH / 2;
            const y = place.y - NODE_HEIGHT / 2;
            return (
              <g
                key={node.id}
                class={classes}
                data-node-id={node.id}
                transform={`translate(${x} ${y})`}
                onPointerDown={(event) => {
                  event.stopPropagation();
                  const point = toGraph(event);
                  setDrag({ id: node.id, x: point.x, y: point.y, moved: false });
                }}
              >
                <title>{`${node.instance ? `(component “${node.instance.name}”, read-only) ` : ''}${node.type} #${node.id}${node.name ? ` “${node.name}”` : ''}${node.node.isPrimary ? ', primary' : ''}${node.node.isBlocking ? ', blocking' : ''}${node.node.isAnchor ? ', anchor' : ''}${node.node.isMute ? ', mute' : ''}${similarity !== undefined ? ` — similarity ${similarity.toFixed(3)}` : ''}`}</title>
                <rect
                  class="graph-node-box"
                  width={NODE_WIDTH}
                  height={NODE_HEIGHT}
                  rx={8}
                  style={similarity !== undefined ? { fill: heatColour(similarity) } : undefined}
                />
                <rect class="graph-node-type" width={6} height={NODE_HEIGHT} rx={3} />
                <text x={14} y={20} class="graph-node-name">
                  {truncate(node.name ?? `${node.type} ${node.id}`, 22)} {flags}
                </text>
                <text x={14} y={38} class="graph-node-meta">
                  {TYPE_MARK[node.type] ?? node.type} #{node.id}
                  {chunks ? ` · ${chunks} chunk${chunks === 1 ? '' : 's'}` : ''}
                  {typeof node.node.similarityThreshold === 'number'
                    ? ` · ≥ ${node.node.similarityThreshold}`
                    : ''}
                  {similarity !== undefined ? ` · ${similarity.toFixed(2)}` : ''}
                </text>
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
                {hasChildren.has(node.id) ? (
                  // biome-ignore lint/a11y/useSemanticElements: SVG has no button element.
                  <text
                    class="graph-collapse"
                    x={NODE_WIDTH - 16}
                    y={NODE_HEIGHT - 8}
                    role="button"
                    aria-label={
                      collapsed.has(node.id) ? `Expand node ${node.id}` : `Collapse node ${node.id}`
                    }
                    onPointerDown={(event) => {
                      event.stopPropagation();
                      setCollapsed((current) => {
                        const next = new Set(current);
                        if (next.has(node.id)) next.delete(node.id);
                        else next.add(node.id);
                        return next;
                      });
                    }}
                  >
                    {collapsed.has(node.id) ? '▸' : '▾'}
                  </text>
                ) : null}
              </g>
            );
          })}
        </g>
      </svg>
      {heat ? (
        <div class="graph-legend" title="Heat map: each node's best chunk against the routed message">
          <span>far</span>
          <span class="graph-legend-scale" />
          <span>close to the message</span>
        </div>
      ) : null}
    </div>
  );
}

/** The label of a component's group: its name and id, and the component it uses by name. */
function groupLabel(component: GraphGroup | undefined, id: number): string {
  const name = typeof component?.node.name === 'string' ? ` “${component.node.name}”` : '';
  const use = typeof component?.node.use === 'string' ? ` uses “${component.node.use}”` : '';
  return `component${name} #${id}${use}`;
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
