/**
 * The interactive candlestick chart (chart.js + chartjs-chart-financial), loaded only on the
 * trade page, only in the browser, and only when the user first reaches for the chart (a pointer
 * over it, a touch, a wheel, focus: ChartArea in routes/trade.tsx); until then the server's SVG,
 * kept live, is the chart. It draws the frame of the server's SVG (components/charts.tsx)
 * at the same place and scale, so the canvas replaces the SVG without a visible jump. After the
 * module's evaluation its work is split into short tasks, yielding to the main thread between
 * them (input first): register, create the chart with the candles the screen shows, tell the page
 * it is ready, then draw the older candles (off screen to the left). Times are shown in
 * America/New_York.
 */
import { Chart, LinearScale, Tooltip, type ChartConfiguration, type Plugin, type Scale } from "chart.js";
import { CandlestickController, CandlestickElement } from "chartjs-chart-financial";
import { useEffect, useRef } from "react";
import {
  CHART_PAD,
  CHART_UNITS,
  LEVEL_ARROW,
  LEVEL_COLOR,
  LEVEL_DASH,
  LEVEL_LABEL_HEIGHT,
  edgeArrow,
  markerSlot,
  type CandleFrame,
  type ChartLevel,
} from "~/components/charts";
import { placeLevels } from "~/lib/chart-levels";
import { formatNyTime } from "~/lib/format";

/** Gives the main thread back between chunks of work (scheduler.yield where it exists, else a new task). */
function yieldToMain(): Promise<void> {
  const s = (window as Window & { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return s?.yield ? s.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

/** Candles drawn in the first pass: more than the widest frame shows at the latest candle. */
const FIRST_PASS = 60;

let registered = false;
function register() {
  if (registered) return;
  Chart.register(CandlestickController, CandlestickElement, LinearScale, Tooltip);
  registered = true;
}

type Point = { x: number; o: number; h: number; l: number; c: number };

function points(frame: CandleFrame, from = 0): Point[] {
  const out: Point[] = [];
  for (let i = Math.max(0, from); i < frame.list.length; i++) {
    const k = frame.list[i]!;
    out.push({ x: i, o: k.open, h: k.high, l: k.low, c: k.close });
  }
  return out;
}

const sameList = (a: number[], b: number[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Whether `next` differs from `prev` only in its latest candle: the same candles before it, the
 * same price range, axis prices and time labels (what most live ticks bring).
 */
function onlyLatestMoved(prev: CandleFrame, next: CandleFrame): boolean {
  const n = next.list.length;
  return (
    n > 0 &&
    prev.list.length === n &&
    prev.list[0]!.timestamp === next.list[0]!.timestamp &&
    prev.list[n - 1]!.timestamp === next.list[n - 1]!.timestamp &&
    prev.hi === next.hi &&
    prev.lo === next.lo &&
    sameList(prev.ticks, next.ticks) &&
    sameList(prev.labels, next.labels)
  );
}

/**
 * A live tick that only moves the latest candle: that one candle is re-placed and the chart
 * redrawn, without chart.js's full update (options, scales, layout and every candle again), which
 * costs tens of milliseconds on a phone every second. Returns false when the chart does not hold
 * the previous frame's candles (the first pass), so that the caller updates it in full.
 */
function applyLatest(chart: Chart<"candlestick">, frame: CandleFrame): boolean {
  const data = chart.data.datasets[0]!.data as unknown as Point[];
  const i = frame.list.length - 1;
  if (data.length !== frame.list.length || data[i]?.x !== i) return false;
  const k = frame.list[i]!;
  // parsing is off: the data array is chart.js's parsed data, so the new point is read as it is
  data[i] = { x: i, o: k.open, h: k.high, l: k.low, c: k.close };
  const meta = chart.getDatasetMeta(0);
  meta.controller.updateElements(meta.data, i, 1, "none");
  chart.draw();
  return true;
}

/** Scales follow the frame: its price range and axis prices, one slot per candle. */
function applyFrame(chart: Chart<"candlestick">, frame: CandleFrame) {
  const { x, y } = chart.options.scales as { x: { min: number; max: number }; y: { min: number; max: number } };
  x.min = -0.5;
  x.max = frame.list.length - 0.5;
  y.min = frame.lo;
  y.max = frame.hi;
  chart.data.datasets[0]!.data = points(frame) as never;
  chart.update("none");
}

function cssVar(name: string) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/**
 * The order levels (an inline plugin), placed by placeLevels as the SVG places them: dashed lines
 * across the plot for levels in the price range, an edge marker (a short thick stroke and an
 * arrow) for those outside it, labels stacked apart at the plot's right end (k: CSS pixels per
 * chart unit).
 */
function levelsPlugin(levels: { current: ChartLevel[] }, k: number, family: string): Plugin<"candlestick"> {
  const colors = new Map(Object.values(LEVEL_COLOR).map((name) => [name, cssVar(name)]));
  return {
    id: "orderLevels",
    afterDatasetsDraw(c) {
      if (levels.current.length === 0) return;
      const { ctx, chartArea: area } = c;
      const y = c.scales.y!;
      const placed = placeLevels(levels.current, {
        lo: y.min,
        hi: y.max,
        top: area.top,
        bottom: area.bottom,
        labelHeight: LEVEL_LABEL_HEIGHT * k,
      });
      ctx.save();
      ctx.font = `${11 * k}px ${family}`;
      ctx.textAlign = "right";
      for (const { level: l, edge, y: py, labelTop } of placed) {
        const color = colors.get(LEVEL_COLOR[l.kind]) ?? "";
        ctx.strokeStyle = color;
        ctx.fillStyle = color;
        ctx.beginPath();
        if (edge === null) {
          ctx.lineWidth = k;
          ctx.setLineDash(LEVEL_DASH[l.kind].map((d) => d * k));
          ctx.moveTo(area.left, py);
          ctx.lineTo(area.right, py);
          ctx.stroke();
        } else {
          ctx.lineWidth = 2 * k;
          ctx.setLineDash([]);
          ctx.moveTo(area.right - 4 * LEVEL_ARROW * k, py);
          ctx.lineTo(area.right, py);
          ctx.stroke();
          const corners = edgeArrow(edge, area.right, markerSlot(edge, py, labelTop, k), k);
          ctx.beginPath();
          corners.forEach(([px, cy], i) => (i === 0 ? ctx.moveTo(px, cy) : ctx.lineTo(px, cy)));
          ctx.closePath();
          ctx.fill();
        }
        if (labelTop !== null)
          ctx.fillText(l.label, area.right - (edge === null ? 4 : 8 + LEVEL_ARROW) * k, labelTop + (LEVEL_LABEL_HEIGHT - 3) * k);
      }
      ctx.restore();
    },
  };
}

export default function CandleChart({
  frame,
  precision,
  locale,
  withDate,
  label,
  levels = [],
  onReady,
}: {
  frame: CandleFrame;
  precision: number;
  locale: string;
  withDate: boolean;
  label: string;
  levels?: ChartLevel[];
  onReady: () => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const chart = useRef<Chart<"candlestick"> | null>(null);
  /** The frame the chart shows (after its second pass and each live update). */
  const drawn = useRef<CandleFrame | null>(null);
  const latest = useRef(frame);
  latest.current = frame;
  const latestLevels = useRef(levels);
  latestLevels.current = levels;
  const ready = useRef(onReady);
  ready.current = onReady;

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    let cancelled = false;
    let created: Chart<"candlestick"> | null = null;
    void (async () => {
      await yieldToMain();
      if (cancelled) return;
      register();
      await yieldToMain();
      if (cancelled) return;
      // The frame's scale: its height in CSS pixels over the SVG's units.
      const k = (el.parentElement?.clientHeight || CHART_UNITS) / CHART_UNITS;
      const up = cssVar("--up");
      const down = cssVar("--down");
      const grid = cssVar("--border");
      const text = cssVar("--muted");
      const font = { family: getComputedStyle(el).fontFamily, size: 11 * k };
      const axis = { grid: { color: grid, drawTicks: false, lineWidth: k }, border: { display: false } };
      const frameNow = () => latest.current;
      const first = frameNow();
      const config: ChartConfiguration<"candlestick"> = {
        type: "candlestick",
        plugins: [levelsPlugin(latestLevels, k, font.family)],
        // First pass: the candles on screen (the box starts at the latest candle).
        data: {
          datasets: [
            {
              label,
              data: points(first, first.list.length - FIRST_PASS),
              backgroundColors: { up, down, unchanged: text },
              borderColors: { up, down, unchanged: text },
              borderWidth: k,
            } as never,
          ],
        },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          parsing: false,
          normalized: true,
          layout: { padding: { top: CHART_PAD.top * k, left: CHART_PAD.left * k, right: 0, bottom: 0 } },
          scales: {
            x: {
              type: "linear",
              min: -0.5,
              max: first.list.length - 0.5,
              offset: false,
              ...axis,
              afterFit: (scale: Scale) => {
                scale.height = CHART_PAD.bottom * k;
              },
              afterBuildTicks: (scale: Scale) => {
                scale.ticks = frameNow().labels.map((value) => ({ value }));
              },
              ticks: {
                color: text,
                font,
                padding: 3 * k,
                maxRotation: 0,
                autoSkip: false,
                callback: (v) => {
                  const c = frameNow().list[Number(v)];
                  return c ? formatNyTime(c.timestamp, locale, withDate) : "";
                },
              },
            },
            y: {
              type: "linear",
              position: "right",
              min: first.lo,
              max: first.hi,
              ...axis,
              afterFit: (scale: Scale) => {
                scale.width = CHART_PAD.right * k;
              },
              afterBuildTicks: (scale: Scale) => {
                scale.ticks = frameNow().ticks.map((value) => ({ value }));
              },
              ticks: { color: text, font, padding: 4 * k, callback: (v) => Number(v).toFixed(precision) },
            },
          },
          plugins: {
            legend: { display: false },
            tooltip: {
              callbacks: {
                title: (items) => {
                  const c = items[0] ? frameNow().list[Math.round((items[0].parsed as unknown as { x: number }).x)] : undefined;
                  return c ? formatNyTime(c.timestamp, locale, withDate) : "";
                },
                label: (item) => {
                  const p = item.raw as Point;
                  return `O ${p.o.toFixed(precision)}  H ${p.h.toFixed(precision)}  L ${p.l.toFixed(precision)}  C ${p.c.toFixed(precision)}`;
                },
              },
            },
          },
        },
      };
      created = new Chart(el, config);
      chart.current = created;
      ready.current();
      await yieldToMain();
      if (cancelled) return;
      // Second pass: the older candles, off screen until the user scrolls back.
      drawn.current = frameNow();
      applyFrame(created, drawn.current);
    })();
    return () => {
      cancelled = true;
      created?.destroy();
      chart.current = null;
      drawn.current = null;
    };
  }, [label, locale, precision, withDate]);

  // Live candles: the latest candle alone when nothing else moved, else the whole frame (the
  // price range, the axis or the candles may have changed).
  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    const prev = drawn.current;
    drawn.current = frame;
    if (prev && onlyLatestMoved(prev, frame) && applyLatest(c, frame)) return;
    applyFrame(c, frame);
  }, [frame]);

  // New order levels (after an order): drawn on the next frame.
  useEffect(() => {
    chart.current?.draw();
  }, [levels]);

  return <canvas ref={canvas} className="chart-canvas" role="img" aria-label={label} />;
}
