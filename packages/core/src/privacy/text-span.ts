/** Where a detector found a value in a text: `text.slice(start, end)`. */
export interface TextSpan {
  /** The index of the value's first character. */
  start: number;
  /** The index after the value's last character. */
  end: number;
}

/** The spans sorted by start, the overlapping ones merged into one. */
export function mergeSpans(spans: readonly TextSpan[]): TextSpan[] {
  const merged: TextSpan[] = [];
  for (const span of [...spans].sort((a, b) => a.start - b.start || b.end - a.end)) {
    const last = merged[merged.length - 1];
    if (last && span.start < last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}
