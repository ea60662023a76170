/**
 * Where the candlestick chart draws the lines of the user's orders (open or buy price, stop-loss,
 * take-profit, liquidation): one rule for the server's SVG and the browser's canvas, in whatever
 * unit the caller draws in (SVG units, canvas pixels). Pure: no DOM.
 *
 *   - A level inside the chart's price range is a line across the plot at its price, its label
 *     just above the line.
 *   - A level above the range is an edge marker at the top edge (an arrow pointing up and its
 *     label), one below it an edge marker at the bottom edge (an arrow pointing down): never a
 *     line at a price the axis does not show.
 *   - Labels never overlap: each takes a slot `labelHeight` tall; slots are stacked in the order
 *     of their wanted places (top-edge markers first, highest price at the very top; bottom-edge
 *     markers last, lowest price at the very bottom) and moved the least to keep them apart and
 *     inside the plot. When more labels than slots fit, the ones left over are not drawn (their
 *     line or marker still is; the accessible list names every level).
 */

export type LevelEdge = "top" | "bottom";

/** Which side of the price range a price lies on (null: inside it, both ends included). */
export function levelEdge(price: number, range: { lo: number; hi: number }): LevelEdge | null {
  if (price > range.hi) return "top";
  if (price < range.lo) return "bottom";
  return null;
}

export interface LevelView {
  /** The price range the plot shows. */
  lo: number;
  hi: number;
  /** The plot's top and bottom edges (top < bottom, y growing downwards). */
  top: number;
  bottom: number;
  /** The height of one label's slot (its text and the gap under it). */
  labelHeight: number;
}

export interface PlacedLevel<T> {
  level: T;
  /** null: a line across the plot at `y`; else an edge marker at that edge (`y` is the edge). */
  edge: LevelEdge | null;
  y: number;
  /** The top of the label's slot, or null when no slot was left for it. */
  labelTop: number | null;
}

export function placeLevels<T extends { price: number }>(levels: readonly T[], view: LevelView): PlacedLevel<T>[] {
  const { lo, hi, top, bottom, labelHeight: h } = view;
  const span = hi - lo;
  const yOf = (price: number) => (span > 0 ? top + ((hi - price) / span) * (bottom - top) : (top + bottom) / 2);
  const placed: PlacedLevel<T>[] = levels.map((level) => {
    const edge = levelEdge(level.price, view);
    return { level, edge, y: edge === "top" ? top : edge === "bottom" ? bottom : yOf(level.price), labelTop: null };
  });
  // the slot each label wants: above its line, just inside its edge
  const wanted = (p: PlacedLevel<T>) =>
    p.edge === "top" ? top : p.edge === "bottom" ? bottom - h : Math.max(top, Math.min(bottom - h, p.y - h));
  const rank = (p: PlacedLevel<T>) => (p.edge === "top" ? 0 : p.edge === null ? 1 : 2);
  const order = placed
    .map((p, i) => ({ p, i, want: wanted(p) }))
    .sort((a, b) => rank(a.p) - rank(b.p) || a.want - b.want || b.p.level.price - a.p.level.price || a.i - b.i);
  const slots = Math.max(0, Math.floor((bottom - top) / h));
  // too many labels: keep every edge marker's label first (they have no line to show where they are), then the lines' labels
  const kept = new Set(
    [...order]
      .sort((a, b) => Number(a.p.edge === null) - Number(b.p.edge === null))
      .slice(0, slots)
      .map((o) => o.i),
  );
  const stack = order.filter((o) => kept.has(o.i));
  // down the plot: each slot at its wanted place or just under the one before
  const tops = stack.map((o) => o.want);
  for (let k = 0; k < tops.length; k++) tops[k] = Math.max(tops[k]!, k === 0 ? top : tops[k - 1]! + h);
  // then up from the bottom: none past the bottom edge, each just over the one after
  for (let k = tops.length - 1; k >= 0; k--) tops[k] = Math.min(tops[k]!, k === tops.length - 1 ? bottom - h : tops[k + 1]! - h);
  stack.forEach((o, k) => {
    placed[o.i]!.labelTop = tops[k]!;
  });
  return placed;
}
