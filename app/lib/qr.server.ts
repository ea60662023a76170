/**
 * QR codes drawn on the server (uqr encodes; no script in the browser): the dark modules of a
 * code as one SVG path, so the page renders it as an inline <svg> that scales crisply and works
 * without JavaScript.
 */
import { encode } from "uqr";

export interface QrPath {
  /** Modules per side, quiet zone included (the SVG's viewBox). */
  size: number;
  /** The dark modules, one "M x y h1 v1 h-1 z" square each, merged per row run. */
  d: string;
}

export function qrPath(text: string): QrPath {
  const { data, size } = encode(text, { ecc: "M", border: 2 });
  const parts: string[] = [];
  for (let y = 0; y < size; y++) {
    const row = data[y]!;
    let x = 0;
    while (x < size) {
      if (!row[x]) {
        x++;
        continue;
      }
      let run = 1;
      while (x + run < size && row[x + run]) run++;
      parts.push(`M${x} ${y}h${run}v1h-${run}z`);
      x += run;
    }
  }
  return { size, d: parts.join("") };
}
