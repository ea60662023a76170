/**
 * The server-rendered candlestick chart (SVG) that the trade page shows without JavaScript (and
 * until the interactive chart has loaded), with the geometry the interactive chart shares. (The
 * home's mini charts are in sparkline.tsx: the home page does not load this module.)
 */
import type { Candle } from "~/domain/market";
import { placeLevels } from "~/lib/chart-levels";
import { formatNyTime } from "~/lib/format";

/**
 * The candlestick chart's geometry, shared by the server's SVG and the browser's canvas so that
 * the canvas replaces the SVG without a visible jump: both draw the latest CHART_CANDLES candles
 * in a box CHART_UNITS tall (scaled to the frame's CSS height, --chart-h), one candle every
 * CANDLE_STEP units, the price axis on the right with the same five prices, a time label every
 * LABEL_EVERY candles counted from the latest. The box is wider than the screen: it scrolls
 * sideways and starts at the latest candle.
 */
export const CHART_CANDLES = 120;
export const CHART_UNITS = 300;
export const CANDLE_STEP = 9;
export const CANDLE_BODY = 0.72;
export const CHART_PAD = { top: 10, right: 64, bottom: 22, left: 4 } as const;
export const LABEL_EVERY = 15;

export interface CandleFrame {
  list: Candle[];
  hi: number;
  lo: number;
  /** The prices of the axis, top to bottom (the first is `hi`, the last `lo`). */
  ticks: number[];
  /** Indexes in `list` of the candles labelled with their time. */
  labels: number[];
  /** Width of the chart in units. */
  width: number;
}

export function candleFrame(candles: Candle[]): CandleFrame {
  const list = candles.slice(-CHART_CANDLES);
  let hi = -Infinity;
  let lo = Infinity;
  for (const c of list) {
    if (c.high > hi) hi = c.high;
    if (c.low < lo) lo = c.low;
  }
  if (!(hi > lo)) {
    hi = (Number.isFinite(hi) ? hi : 0) + 0.5;
    lo = hi - 1;
  }
  // About five axis prices at a round step (1, 2, 2.5 or 5 × 10ⁿ); the range ends on them.
  const rough = (hi - lo) / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = magnitude * ([1, 2, 2.5, 5].find((m) => rough / magnitude <= m) ?? 10);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let i = 0; hi - i * step > lo - step / 2; i++) ticks.push(hi - i * step);
  const labels: number[] = [];
  for (let i = list.length - 1; i >= 0; i -= LABEL_EVERY) labels.unshift(i);
  return {
    list,
    hi,
    lo,
    ticks,
    labels,
    width: CHART_PAD.left + list.length * CANDLE_STEP + CHART_PAD.right,
  };
}

/**
 * Horizontal lines at the levels of the user's orders on the instrument: the open (or pending
 * buy) price, stop-loss, take-profit and liquidation. Each kind has its own dash pattern and
 * colour (a CSS custom property), the same in the SVG and on the canvas. Where each goes (a line
 * in the price range, an edge marker with an arrow outside it, labels stacked apart) is one rule:
 * placeLevels (app/lib/chart-levels.ts).
 */
export type LevelKind = "open" | "pending" | "sl" | "tp" | "liq";
export interface ChartLevel {
  key: string;
  kind: LevelKind;
  price: number;
  /** The short text drawn on the line ("SL 48,000.00"). */
  label: string;
  /** What the screen readers' list says of it ("Buy 0.01 lots, SL: 48,000.00"). */
  description: string;
}
/**
 * A label's slot and the edge marker's arrow, in chart units. The slot holds 11-unit text whose
 * box (ascent and descent) is up to about 1.45 em in the fonts phones fall back to (Noto Sans:
 * 1.36 em, about 15 units), so two stacked labels never touch.
 */
export const LEVEL_LABEL_HEIGHT = 16;
export const LEVEL_ARROW = 7;

/**
 * An edge marker's arrow (three corners, in chart units × k): beside its label's slot at the
 * plot's right end, pointing off the chart (up at the top edge, down at the bottom one).
 */
export function edgeArrow(edge: "top" | "bottom", right: number, slotTop: number, k = 1): [number, number][] {
  const a = LEVEL_ARROW * k;
  const x = right - 4 * k - a;
  const top = slotTop + 3 * k;
  return edge === "top"
    ? [
        [x, top + a],
        [x + a / 2, top],
        [x + a, top + a],
      ]
    : [
        [x, top],
        [x + a / 2, top + a],
        [x + a, top],
      ];
}

/** Where an edge marker's label slot is when no slot was left for the label (the arrow still shows). */
export function markerSlot(edge: "top" | "bottom", edgeY: number, labelTop: number | null, k = 1) {
  return labelTop ?? (edge === "top" ? edgeY : edgeY - LEVEL_LABEL_HEIGHT * k);
}
/** Dash patterns in chart units (line, gap, …). */
export const LEVEL_DASH: Record<LevelKind, number[]> = {
  open: [8, 4],
  pending: [8, 4, 2, 4],
  sl: [4, 4],
  tp: [2, 3],
  liq: [12, 3, 2, 3, 2, 3],
};
/** Colours: custom properties of the theme. */
export const LEVEL_COLOR: Record<LevelKind, string> = {
  open: "--accent",
  pending: "--accent",
  sl: "--danger-text",
  tp: "--up-text",
  liq: "--text",
};

/** The chart's box: as wide as its candles at the frame's scale, at least the frame's width. */
export function chartInnerStyle(frame: CandleFrame) {
  return { width: `max(100%, calc(var(--chart-h) * ${(frame.width / CHART_UNITS).toFixed(4)}))` };
}

/**
 * The candles as an SVG (server-rendered: what visitors without JavaScript see, and everyone
 * until the interactive chart is ready). Up and down candles are one path each (wick and body),
 * a few elements instead of hundreds.
 */
export function CandleSvg({
  frame,
  precision,
  locale,
  label,
  withDate,
  levels = [],
}: {
  frame: CandleFrame;
  precision: number;
  locale: string;
  label: string;
  withDate: boolean;
  levels?: ChartLevel[];
}) {
  const { list, hi, lo, ticks, labels, width } = frame;
  if (list.length === 0) return null;
  const height = CHART_UNITS;
  const pad = CHART_PAD;
  const plotH = height - pad.top - pad.bottom;
  const y = (v: number) => pad.top + ((hi - v) / (hi - lo)) * plotH;
  const x = (i: number) => pad.left + i * CANDLE_STEP + CANDLE_STEP / 2;
  const half = (CANDLE_STEP * CANDLE_BODY) / 2;
  const n = (v: number) => v.toFixed(1);
  let up = "";
  let down = "";
  list.forEach((c, i) => {
    const top = y(Math.max(c.open, c.close));
    // the wick from high to low, then the body (at least 1 unit tall)
    const d = `M${n(x(i))} ${n(y(c.high))}V${n(y(c.low))}M${n(x(i) - half)} ${n(top)}h${n(2 * half)}v${n(Math.max(1, y(Math.min(c.open, c.close)) - top))}h${n(-2 * half)}z`;
    if (c.close >= c.open) up += d;
    else down += d;
  });
  return (
    <svg
      className="candle-svg"
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="xMaxYMid meet"
      role="img"
      aria-label={label}
      direction="ltr"
    >
      {ticks.map((v) => (
        <g key={`t${v}`}>
          <line x1={pad.left} x2={width - pad.right} y1={y(v)} y2={y(v)} className="grid" />
          <text x={width - pad.right + 4} y={y(v) + 4} className="axis">
            {v.toFixed(precision)}
          </text>
        </g>
      ))}
      {labels.map((i) => (
        <line key={`g${i}`} x1={x(i)} x2={x(i)} y1={pad.top} y2={height - pad.bottom} className="grid" />
      ))}
      <path d={up} className="up" />
      <path d={down} className="down" />
      {placeLevels(levels, { lo, hi, top: pad.top, bottom: height - pad.bottom, labelHeight: LEVEL_LABEL_HEIGHT }).map(
        ({ level: l, edge, y: ly, labelTop }) => {
          const right = width - pad.right;
          const a = LEVEL_ARROW;
          // an edge marker: a short solid stroke along the edge and an arrow pointing off the chart, the label beside it
          const arrow =
            edge === null
              ? ""
              : `M${edgeArrow(edge, right, markerSlot(edge, ly, labelTop))
                  .map(([px, py]) => `${n(px)} ${n(py)}`)
                  .join("L")}z`;
          return (
            <g key={l.key} className={`level level-${l.kind}`} data-edge={edge ?? undefined}>
              {edge === null ? (
                <line x1={pad.left} x2={right} y1={n(ly)} y2={n(ly)} strokeDasharray={LEVEL_DASH[l.kind].join(" ")} />
              ) : (
                <>
                  <line x1={n(right - 4 * a)} x2={right} y1={n(ly)} y2={n(ly)} className="level-edge" />
                  <path d={arrow} className="level-arrow" />
                </>
              )}
              {labelTop === null ? null : (
                <text x={n(right - (edge === null ? 4 : 8 + a))} y={n(labelTop + LEVEL_LABEL_HEIGHT - 3)} textAnchor="end">
                  {l.label}
                </text>
              )}
            </g>
          );
        },
      )}
      {labels.map((i) => (
        <text key={`l${i}`} x={x(i)} y={height - 6} className="axis" textAnchor="middle">
          {formatNyTime(list[i]!.timestamp, locale, withDate)}
        </text>
      ))}
    </svg>
  );
}
