import { NODE_HEIGHT, NODE_WIDTH } from '../graph-layout';

/** The smallest size, in screen pixels, a label of the graph is ever drawn at. */
export const MIN_LABEL_PX = 11;
/** Font sizes of a node's two lines at 1× (SVG units). */
export const NAME_SIZE = 13;
export const META_SIZE = 11;
/** Average advance of a character, in ems (a little generous, so a truncated label stays inside its box). */
const NAME_EM = 0.64;
const META_EM = 0.6;

/** How a node box's labels are drawn at a zoom: font sizes (SVG units), lines and how many characters fit. */
export interface LabelMetrics {
  /** Factor on the 1× font sizes: 1 at 1× and above, 1 / scale below, so a label never shrinks under `MIN_LABEL_PX` on screen. */
  factor: number;
  nameSize: number;
  metaSize: number;
  /** Baselines of the name and the meta line (in the box). */
  nameY: number;
  metaY: number;
  /** Whether the meta line (type, id, chunks, threshold) fits under the name; else it is only in the tooltip. */
  showMeta: boolean;
  /** Characters of the name and of the meta line that fit in the box (the rest is cut with …, the full text in the tooltip). */
  nameChars: number;
  metaChars: number;
  /** Size and place of the ▾/▸ fold mark. */
  foldSize: number;
}

/**
 * The labels of a node box at a zoom `scale`: below 1× the text grows in the graph's units as the
 * graph shrinks, so on screen it stays at least `MIN_LABEL_PX` (the meta line at 11, the name at 13);
 * what no longer fits in the box is truncated (the full text is the box's tooltip), and the meta line
 * is dropped when two lines no longer fit.
 */
export function labelMetrics(scale: number): LabelMetrics {
  const factor = Math.max(1, MIN_LABEL_PX / META_SIZE / Math.max(scale, 0.01));
  const nameSize = NAME_SIZE * factor;
  const metaSize = META_SIZE * factor;
  const showMeta = factor <= 1.5;
  const gap = showMeta ? (NODE_HEIGHT - nameSize - metaSize) / 3 : (NODE_HEIGHT - nameSize) / 2;
  const nameY = gap + nameSize * 0.8;
  const metaY = 2 * gap + nameSize + metaSize * 0.8;
  const foldSize = NAME_SIZE * factor;
  // The name leaves room for the fold mark and the findings badge on the right.
  const nameWidth = NODE_WIDTH - 14 - foldSize - 6;
  const metaWidth = NODE_WIDTH - 14 - foldSize - 6;
  return {
    factor,
    nameSize,
    metaSize,
    nameY,
    metaY,
    showMeta,
    nameChars: Math.max(3, Math.floor(nameWidth / (nameSize * NAME_EM))),
    metaChars: Math.max(3, Math.floor(metaWidth / (metaSize * META_EM))),
    foldSize,
  };
}

/** A group's label size (SVG units) at a zoom, and how many characters fit in `width`. */
export function groupLabelMetrics(scale: number, width: number): { size: number; chars: number } {
  const size = META_SIZE * Math.max(1, MIN_LABEL_PX / META_SIZE / Math.max(scale, 0.01));
  return { size, chars: Math.max(6, Math.floor((width - 20 - size * 1.2) / (size * META_EM))) };
}
