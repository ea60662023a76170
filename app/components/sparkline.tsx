/** The home's mini area chart (server-rendered SVG), one per featured instrument. */
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
