/**
 * The interactive candlestick chart (chart.js + chartjs-chart-financial), loaded only on the
 * trade page and only in the browser. Times are shown in America/New_York; with more candles
 * than fit, the chart scrolls sideways and starts at the latest candle.
 */
import { Chart, LinearScale, Tooltip, type ChartConfiguration } from "chart.js";
import { CandlestickController, CandlestickElement } from "chartjs-chart-financial";
import { useEffect, useRef } from "react";
import { formatNyTime } from "~/lib/format";
import type { Candle } from "~/domain/market";

Chart.register(CandlestickController, CandlestickElement, LinearScale, Tooltip);

const PX_PER_CANDLE = 9;

function cssVar(name: string) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

export default function CandleChart({ candles, precision, locale, withDate, label }: { candles: Candle[]; precision: number; locale: string; withDate: boolean; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart<"candlestick"> | null>(null);
  const times = useRef<number[]>([]);

  useEffect(() => {
    if (!canvas.current) return;
    const up = cssVar("--up") || "#85bd00";
    const down = cssVar("--down") || "#4b70ff";
    const grid = cssVar("--border") || "#ddd";
    const text = cssVar("--muted") || "#666";
    const config: ChartConfiguration<"candlestick"> = {
      type: "candlestick",
      data: { datasets: [{ label, data: [], backgroundColors: { up, down, unchanged: text }, borderColors: { up, down, unchanged: text } } as never] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: false,
        scales: {
          x: {
            type: "linear",
            offset: true,
            grid: { color: grid },
            ticks: { color: text, maxRotation: 0, autoSkipPadding: 24, stepSize: 1, callback: (v) => (times.current[Number(v)] ? formatNyTime(times.current[Number(v)]!, locale, withDate) : "") },
          },
          y: { type: "linear", position: "right", grid: { color: grid }, ticks: { color: text, callback: (v) => Number(v).toFixed(precision) } },
        },
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              title: (items) => (items[0] ? formatNyTime(times.current[Math.round((items[0].parsed as unknown as { x: number }).x)] ?? 0, locale, withDate) : ""),
              label: (item) => {
                const p = item.raw as { o: number; h: number; l: number; c: number };
                return `O ${p.o.toFixed(precision)}  H ${p.h.toFixed(precision)}  L ${p.l.toFixed(precision)}  C ${p.c.toFixed(precision)}`;
              },
            },
          },
        },
      },
    };
    chart.current = new Chart(canvas.current, config);
    return () => {
      chart.current?.destroy();
      chart.current = null;
    };
  }, [label, locale, precision, withDate]);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    const list = candles.slice(-120);
    times.current = list.map((k) => k.timestamp);
    c.data.datasets[0]!.data = list.map((k, i) => ({ x: i, o: k.open, h: k.high, l: k.low, c: k.close })) as never;
    c.update("none");
  }, [candles]);

  const count = Math.min(candles.length, 120);
  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollLeft = el.scrollWidth;
  }, [count]);

  return (
    <div className="chart-scroll" ref={scroller} dir="ltr" tabIndex={0} role="region" aria-label={label}>
      <div className="chart-inner" style={{ width: `max(100%, ${count * PX_PER_CANDLE}px)` }}>
        <canvas ref={canvas} role="img" aria-label={label} />
      </div>
    </div>
  );
}
