/**
 * The home's mini area chart (server-rendered SVG), one per featured instrument. Spec §9: a
 * mini chart with more than 10 points scrolls: 10 points fill the visible width, the chart
 * starts at the latest point, and it scrolls sideways by touch, mouse or keyboard (the scroll
 * box takes focus; arrow keys move it).
 */

/** Points visible at once; more than this and the chart scrolls (spec §9). */
export const MINI_CHART_WINDOW = 10;

/** How many visible widths the chart spans: 1 up to MINI_CHART_WINDOW points, then one more step per point. */
export function miniChartSpan(points: number): number {
  return points > MINI_CHART_WINDOW ? (points - 1) / (MINI_CHART_WINDOW - 1) : 1;
}

export function Sparkline({
  points,
  trend,
  label,
  scrollLabel,
}: {
  points: number[];
  trend: "up" | "down" | "flat";
  label: string;
  scrollLabel?: string;
}) {
  if (points.length < 2) return <svg className="sparkline" viewBox="0 0 100 32" aria-hidden="true" />;
  const min = Math.min(...points);
  const max = Math.max(...points);
  const span = max - min || 1;
  const xy = points.map((p, i) => [(i / (points.length - 1)) * 100, 30 - ((p - min) / span) * 28] as const);
  const line = xy.map(([x, y], i) => `${i ? "L" : "M"}${x.toFixed(2)},${y.toFixed(2)}`).join("");
  const scale = miniChartSpan(points.length);
  const svg = (
    <svg
      className={`sparkline ${trend}`}
      viewBox="0 0 100 32"
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
      style={scale > 1 ? { inlineSize: `${(scale * 100).toFixed(2)}%`, flex: "none" } : undefined}
    >
      <path d={`${line}L100,32L0,32Z`} className="area" />
      <path d={line} className="line" fill="none" />
    </svg>
  );
  if (scale === 1) return svg;
  return (
    <div className="sparkline-scroll" tabIndex={0} role="group" aria-label={scrollLabel ?? label} dir="ltr" data-points={points.length}>
      {svg}
    </div>
  );
}
