import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { GraphLayout } from '../graph-layout';
import { centredView, fittedView, type GraphView, type Point, toGraphPoint, zoomedView } from './graph-view';
import { FIT_MIN_SCALE } from './legible-fit';

/** The graph's pan and zoom, and what changes them. */
export interface GraphViewControls {
  view: GraphView;
  setView(update: (current: GraphView) => GraphView): void;
  /** Shows the whole graph (at `FIT_MIN_SCALE` or more). */
  fit(): void;
  /** Fits once the next layout is drawn (after a fold changes what is shown). */
  fitAfterLayout(): void;
  /** Zooms by `factor` about a canvas point (the middle by default). */
  zoom(factor: number, at?: Point): void;
  /** Brings a placed node into view. */
  centre(id: number): void;
  /** A pointer's position in the layout's coordinates. */
  toGraph(event: { clientX: number; clientY: number }): Point;
}

/**
 * The pan and zoom of the graph drawn in `svg`: fitted when it first shows, whenever boxes appear or
 * disappear (a fold, a new node), and when the canvas changes size (the routing panel grows, the
 * window is resized). The arithmetic is `graph-view.ts`'s.
 */
export function useGraphView(svg: RefObject<SVGSVGElement | null>, placed: GraphLayout): GraphViewControls {
  const [view, setView] = useState<GraphView>({ scale: 1, x: 0, y: 0 });
  const fitted = useRef(0);
  const pending = useRef(false);
  const box = () => svg.current?.getBoundingClientRect();
  const fit = () => {
    const canvas = box();
    const next = canvas ? fittedView(canvas, placed) : null;
    if (!canvas || !next) return;
    // Never below the legible zoom: a graph still too wide is centred (its root across the middle) and panned.
    const scale = Math.max(next.scale, FIT_MIN_SCALE);
    setView({ ...next, scale, x: (canvas.width - placed.width * scale) / 2 });
  };
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
  }, [svg]);
  useEffect(() => {
    const boxes = placed.nodes.size + placed.collapsedGroups.length;
    if (boxes && (fitted.current !== boxes || pending.current)) {
      fitted.current = boxes;
      pending.current = false;
      fit();
    }
  });
  return {
    view,
    setView,
    fit,
    fitAfterLayout: () => {
      pending.current = true;
    },
    zoom: (factor, at) => {
      const canvas = box();
      const point = at ?? { x: (canvas?.width ?? 0) / 2, y: (canvas?.height ?? 0) / 2 };
      setView((current) => zoomedView(current, factor, point));
    },
    centre: (id) => {
      const node = placed.nodes.get(id);
      const canvas = box();
      if (node && canvas) setView((current) => centredView(current, canvas, node));
    },
    toGraph: (event) => {
      const canvas = svg.current!.getBoundingClientRect();
      return toGraphPoint(view, { x: event.clientX - canvas.left, y: event.clientY - canvas.top });
    },
  };
}
