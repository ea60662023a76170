/**
 * Server-rendered charts (SVG): the home mini area chart and the candlestick chart that the
 * trade page shows without JavaScript (and until the interactive chart has loaded).
 */
import type { Candle } from "~/domain/market";
import { formatNyTime } from "~/lib/format";

export function Sparkline({ points, trend, label }: { points: number[]; trend: "up" | "down" | "flat"; label: string }) {
  if (points.length < 2) return <svg className="sparkline" viewBox="0 0 100 32" aria-hidden="true" />;
  const min = Math.min(...points);
  const max = Math.max(...points);
  const span = max - min || 1;
  const xy = points.map((p, i) => [(i / (points.length - 1)) * 100, 30 - ((p - min) / span) * 28] as const);
  const line = xy.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(2)},${y.toFixed(2)}`).join("");
  return (
    <svg className={`sparkline ${trend}`} viewBox="0 0 100 32" preserveAspectRatio="none" role="img" aria-label={label}>
      <path d={`${line}L100,32L0,32Z`} className="area" />
      <path d={line} className="line" fill="none" />
    </svg>
  );
}

export function CandleSvg({ candles, precision, locale, label, withDate }: { candles: Candle[]; precision: number; locale: string; label: string; withDate: boolean }) {
  const list = candles.slice(-60);
  const width = 600;
  const height = 280;
  const pad = { top: 10, right: 64, bottom: 22, left: 4 };
  if (list.length === 0) return null;
  const hi = Math.max(...list.map((c) => c.high));
  const lo = Math.min(...list.map((c) => c.low));
  const span = hi - lo || 1;
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const step = plotW / list.length;
  const y = (v: number) => pad.top + ((hi - v) / span) * plotH;
  const labels = [0, Math.floor(list.length / 2), list.length - 1];
  return (
    <svg className="candle-svg" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} direction="ltr">
      {[0, 0.25, 0.5, 0.75, 1].map((f) => {
        const v = hi - f * span;
        return (
          <g key={f}>
            <line x1={pad.left} x2={width - pad.right} y1={y(v)} y2={y(v)} className="grid" />
            <text x={width - pad.right + 4} y={y(v) + 4} className="axis">
              {v.toFixed(precision)}
            </text>
          </g>
        );
      })}
      {list.map((c, i) => {
        const x = pad.left + i * step + step / 2;
        const up = c.close >= c.open;
        const top = y(Math.max(c.open, c.close));
        const bottom = y(Math.min(c.open, c.close));
        return (
          <g key={c.timestamp} className={up ? "up" : "down"}>
            <line x1={x} x2={x} y1={y(c.high)} y2={y(c.low)} />
            <rect x={x - step * 0.35} width={step * 0.7} y={top} height={Math.max(1, bottom - top)} />
          </g>
        );
      })}
      {labels.map((i) => (
        <text key={i} x={pad.left + i * step + step / 2} y={height - 6} className="axis" textAnchor="middle">
          {formatNyTime(list[i]!.timestamp, locale, withDate)}
        </text>
      ))}
    </svg>
  );
}
