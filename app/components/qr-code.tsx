/**
 * A QR code drawn on the server (app/lib/qr.server.ts) as an inline SVG: it scales crisply and
 * needs no script. `data-qr-text` and the title carry what it encodes, for people and tests.
 */
import type { QrPath } from "~/lib/qr.server";

export function QrCode({ qr, label, text }: { qr: QrPath; label: string; text: string }) {
  return (
    <svg className="qr" viewBox={`0 0 ${qr.size} ${qr.size}`} role="img" aria-label={label} shapeRendering="crispEdges" data-qr-text={text}>
      <title>{label}</title>
      <rect width={qr.size} height={qr.size} className="qr-bg" />
      <path d={qr.d} className="qr-fg" />
    </svg>
  );
}
