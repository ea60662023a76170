/**
 * Dependency-free picture-captcha renderer.
 *
 * Pure TypeScript, synchronous, no Buffer / node: imports / DOM / CompressionStream:
 * only Uint8Array, DataView and plain math, so it behaves identically in workerd and Node.
 *
 * Output is an 8-bit greyscale PNG (colour type 0) whose IDAT holds a zlib stream made of
 * STORED (uncompressed) deflate blocks. All jitter comes from the caller-supplied `noise`
 * bytes, so equal (text, noise) inputs yield byte-identical images.
 */

export const CAPTCHA_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const CAPTCHA_WIDTH = 150;
export const CAPTCHA_HEIGHT = 50;

const MIN_LENGTH = 4;
const MAX_LENGTH = 6;
const MIN_NOISE = 64;

// ---------------------------------------------------------------------------
// 5x7 bitmap font. Each glyph is 7 rows of 5 columns; '#' = ink.
// ---------------------------------------------------------------------------

const GLYPH_W = 5;
const GLYPH_H = 7;

const FONT_SRC: Record<string, string> = {
  A: ".###. #...# #...# ##### #...# #...# #...#",
  B: "####. #...# #...# ####. #...# #...# ####.",
  C: ".###. #...# #.... #.... #.... #...# .###.",
  D: "####. #...# #...# #...# #...# #...# ####.",
  E: "##### #.... #.... ####. #.... #.... #####",
  F: "##### #.... #.... ####. #.... #.... #....",
  G: ".###. #...# #.... #.### #...# #...# .####",
  H: "#...# #...# #...# ##### #...# #...# #...#",
  J: "..### ...#. ...#. ...#. ...#. #..#. .##..",
  K: "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
  L: "#.... #.... #.... #.... #.... #.... #####",
  M: "#...# ##.## #.#.# #.#.# #...# #...# #...#",
  N: "#...# #...# ##..# #.#.# #..## #...# #...#",
  P: "####. #...# #...# ####. #.... #.... #....",
  Q: ".###. #...# #...# #...# #.#.# #..#. .##.#",
  R: "####. #...# #...# ####. #.#.. #..#. #...#",
  S: ".#### #.... #.... .###. ....# ....# ####.",
  T: "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
  U: "#...# #...# #...# #...# #...# #...# .###.",
  V: "#...# #...# #...# #...# #...# .#.#. ..#..",
  W: "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
  X: "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
  Y: "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
  Z: "##### ....# ...#. ..#.. .#... #.... #####",
  "2": ".###. #...# ....# ...#. ..#.. .#... #####",
  "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
  "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
  "5": "##### #.... ####. ....# ....# #...# .###.",
  "6": "..##. .#... #.... ####. #...# #...# .###.",
  "7": "##### ....# ...#. ..#.. .#... .#... .#...",
  "8": ".###. #...# #...# .###. #...# #...# .###.",
  "9": ".###. #...# #...# .#### ....# ...#. .##..",
};

/** Parsed font: char -> Uint8Array(GLYPH_W * GLYPH_H) of 0/1. */
const FONT: Map<string, Uint8Array> = (() => {
  const map = new Map<string, Uint8Array>();
  for (const ch of CAPTCHA_ALPHABET) {
    const src = FONT_SRC[ch];
    if (src === undefined) throw new Error(`captcha font is missing glyph ${ch}`);
    const rows = src.split(" ");
    if (rows.length !== GLYPH_H) throw new Error(`captcha glyph ${ch} has wrong height`);
    const bits = new Uint8Array(GLYPH_W * GLYPH_H);
    rows.forEach((row, y) => {
      if (row.length !== GLYPH_W) throw new Error(`captcha glyph ${ch} has wrong width`);
      for (let x = 0; x < GLYPH_W; x++) bits[y * GLYPH_W + x] = row[x] === "#" ? 1 : 0;
    });
    map.set(ch, bits);
  }
  return map;
})();

// ---------------------------------------------------------------------------
// Deterministic PRNG seeded from the noise bytes (sfc32).
// ---------------------------------------------------------------------------

function makeRng(noise: Uint8Array): () => number {
  // Fold every noise byte into four 32-bit lanes with a multiplicative mix.
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = 0x85a308d3;
  for (let i = 0; i < noise.length; i++) {
    const v = noise[i] ?? 0;
    switch (i & 3) {
      case 0:
        a = Math.imul(a ^ v, 0x85ebca6b) ^ (a >>> 13);
        break;
      case 1:
        b = Math.imul(b ^ v, 0xc2b2ae35) ^ (b >>> 16);
        break;
      case 2:
        c = Math.imul(c ^ v, 0x27d4eb2f) ^ (c >>> 15);
        break;
      default:
        d = Math.imul(d ^ v, 0x165667b1) ^ (d >>> 13);
        break;
    }
  }
  a >>>= 0;
  b >>>= 0;
  c >>>= 0;
  d >>>= 0;
  const next = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  // Warm up so that closely related seeds diverge.
  for (let i = 0; i < 24; i++) next();
  return next;
}

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

function validate(text: string, noise: Uint8Array): void {
  if (typeof text !== "string") throw new Error("captcha text must be a string");
  if (text.length < MIN_LENGTH || text.length > MAX_LENGTH) {
    throw new Error(`captcha text must be ${MIN_LENGTH}-${MAX_LENGTH} characters long`);
  }
  for (const ch of text) {
    if (!CAPTCHA_ALPHABET.includes(ch)) throw new Error("captcha text contains a character outside the alphabet");
  }
  if (!(noise instanceof Uint8Array) || noise.length < MIN_NOISE) {
    throw new Error(`captcha noise must be a Uint8Array of at least ${MIN_NOISE} bytes`);
  }
}

/** Darken pixel (x, y) towards `grey` with opacity `alpha` (0..1). */
function blend(img: Uint8Array, x: number, y: number, grey: number, alpha: number): void {
  if (x < 0 || y < 0 || x >= CAPTCHA_WIDTH || y >= CAPTCHA_HEIGHT || alpha <= 0) return;
  const i = y * CAPTCHA_WIDTH + x;
  const cur = img[i] ?? 255;
  const a = alpha > 1 ? 1 : alpha;
  img[i] = Math.round(cur + (grey - cur) * a);
}

function renderPixels(text: string, rnd: () => number): Uint8Array {
  const W = CAPTCHA_WIDTH;
  const H = CAPTCHA_HEIGHT;
  const img = new Uint8Array(W * H);
  const range = (lo: number, hi: number): number => lo + (hi - lo) * rnd();
  const int = (lo: number, hi: number): number => Math.floor(range(lo, hi + 1));

  // Light background with a gentle diagonal gradient and faint blotches.
  const bgBase = range(236, 248);
  const gx = range(-10, 10) / W;
  const gy = range(-8, 8) / H;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const v = bgBase + gx * (x - W / 2) + gy * (y - H / 2);
      img[y * W + x] = Math.max(220, Math.min(255, Math.round(v)));
    }
  }
  const blobs = int(3, 5);
  for (let k = 0; k < blobs; k++) {
    const bx = range(0, W);
    const by = range(0, H);
    const r = range(8, 18);
    const depth = range(6, 14);
    for (let y = Math.max(0, Math.floor(by - r)); y < Math.min(H, Math.ceil(by + r)); y++) {
      for (let x = Math.max(0, Math.floor(bx - r)); x < Math.min(W, Math.ceil(bx + r)); x++) {
        const d = Math.hypot(x - bx, y - by) / r;
        if (d < 1) blend(img, x, y, (img[y * W + x] ?? 255) - depth, 1 - d);
      }
    }
  }

  // Thin "background" strokes drawn before the text (they pass behind the glyphs).
  const drawCurve = (thick: number, grey: number, alpha: number): void => {
    const x0 = range(-10, 30);
    const x1 = range(W - 30, W + 10);
    const y0 = range(6, H - 6);
    const y1 = range(6, H - 6);
    const amp = range(2, 7);
    const freq = range(0.5, 1.6);
    const phase = range(0, Math.PI * 2);
    const half = thick / 2;
    // One sample per pixel column: slopes stay well below 1, so there are no gaps.
    for (let px = Math.max(0, Math.ceil(x0)); px <= Math.min(W - 1, Math.floor(x1)); px++) {
      const t = (px - x0) / (x1 - x0);
      const cy = y0 + (y1 - y0) * t + amp * Math.sin(phase + t * Math.PI * 2 * freq);
      for (let yy = Math.floor(cy - half - 1); yy <= Math.ceil(cy + half + 1); yy++) {
        const cover = Math.min(1, Math.max(0, half + 0.5 - Math.abs(yy - cy)));
        if (cover > 0) blend(img, px, yy, grey, cover * alpha);
      }
    }
  };
  const bgLines = int(2, 3);
  for (let k = 0; k < bgLines; k++) drawCurve(range(1, 1.8), int(95, 140), range(0.6, 0.85));

  // Glyphs.
  const n = text.length;
  const margin = 5;
  const cell = (W - 2 * margin) / n;
  const baseScaleX = Math.min(3.5, (cell - 4) / GLYPH_W);
  const SS = 3; // supersampling per axis for smooth edges
  for (let gi = 0; gi < n; gi++) {
    const bits = FONT.get(text[gi] ?? "");
    if (!bits) throw new Error("captcha text contains a character outside the alphabet");
    const sx = baseScaleX * range(0.92, 1.05);
    const sy = range(3.5, 4.2);
    const theta = range(-0.18, 0.18); // ~ +-10 degrees
    const shear = range(-0.25, 0.25);
    const cx = margin + cell * (gi + 0.5) + range(-cell * 0.05, cell * 0.05);
    const halfH = (GLYPH_H * sy) / 2;
    const slack = Math.max(0, H / 2 - halfH - 4);
    const cy = H / 2 + range(-slack, slack);
    const ink = int(15, 85);
    const weight = range(0.05, 0.2); // extra stroke thickness in glyph units
    const cos = Math.cos(theta);
    const sin = Math.sin(theta);
    const reach = Math.ceil(Math.hypot(GLYPH_W * sx, GLYPH_H * sy) / 2 + 4);
    for (let y = Math.max(0, Math.floor(cy - reach)); y < Math.min(H, Math.ceil(cy + reach)); y++) {
      for (let x = Math.max(0, Math.floor(cx - reach)); x < Math.min(W, Math.ceil(cx + reach)); x++) {
        let hits = 0;
        for (let sj = 0; sj < SS; sj++) {
          for (let si = 0; si < SS; si++) {
            const dx = x + (si + 0.5) / SS - cx;
            const dy = y + (sj + 0.5) / SS - cy;
            // Inverse rotation, then inverse shear, then inverse scale.
            let rx = cos * dx + sin * dy;
            const ry = -sin * dx + cos * dy;
            rx -= shear * ry;
            const u = rx / sx + GLYPH_W / 2;
            const v = ry / sy + GLYPH_H / 2;
            if (sampleGlyph(bits, u, v, weight)) hits++;
          }
        }
        if (hits > 0) blend(img, x, y, ink, hits / (SS * SS));
      }
    }
  }

  // A stroke crossing the text on top, lighter and thin so the glyphs remain readable.
  const fgLines = int(1, 2);
  for (let k = 0; k < fgLines; k++) drawCurve(range(0.9, 1.3), int(70, 120), range(0.55, 0.75));

  // Speckle noise: dark dots on the background, light dots knocked out of the ink.
  const speckles = Math.floor(W * H * range(0.022, 0.032));
  for (let k = 0; k < speckles; k++) {
    const x = int(0, W - 1);
    const y = int(0, H - 1);
    const cur = img[y * W + x] ?? 255;
    if (cur < 128) blend(img, x, y, int(170, 235), range(0.5, 0.9));
    else blend(img, x, y, int(40, 160), range(0.5, 1));
  }
  // A few short scratch dashes.
  const dashes = int(10, 16);
  for (let k = 0; k < dashes; k++) {
    const x = range(0, W);
    const y = range(0, H);
    const ang = range(0, Math.PI);
    const len = range(2, 5);
    const grey = int(60, 150);
    for (let t = 0; t <= len; t += 0.5) {
      blend(img, Math.round(x + Math.cos(ang) * t), Math.round(y + Math.sin(ang) * t), grey, 0.7);
    }
  }

  return img;
}

/** Returns true if glyph-space point (u, v) is on ink, with `weight` extra stroke padding. */
function sampleGlyph(bits: Uint8Array, u: number, v: number, weight: number): boolean {
  if (u < -weight || v < -weight || u >= GLYPH_W + weight || v >= GLYPH_H + weight) return false;
  const cu = Math.floor(u);
  const cv = Math.floor(v);
  if (inkAt(bits, cu, cv)) return true;
  if (weight <= 0) return false;
  // Dilate: check neighbouring cells if the point is within `weight` of their edge.
  const fu = u - cu;
  const fv = v - cv;
  const left = fu < weight;
  const right = fu > 1 - weight;
  const up = fv < weight;
  const down = fv > 1 - weight;
  if (left && inkAt(bits, cu - 1, cv)) return true;
  if (right && inkAt(bits, cu + 1, cv)) return true;
  if (up && inkAt(bits, cu, cv - 1)) return true;
  if (down && inkAt(bits, cu, cv + 1)) return true;
  return false;
}

function inkAt(bits: Uint8Array, x: number, y: number): boolean {
  if (x < 0 || y < 0 || x >= GLYPH_W || y >= GLYPH_H) return false;
  return bits[y * GLYPH_W + x] === 1;
}

// ---------------------------------------------------------------------------
// PNG encoding (greyscale 8-bit, stored deflate blocks)
// ---------------------------------------------------------------------------

const CRC_TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = (CRC_TABLE[(c ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  const MOD = 65521;
  // Process in chunks small enough that the sums cannot overflow before reduction.
  for (let i = 0; i < bytes.length;) {
    const end = Math.min(bytes.length, i + 3800);
    for (; i < end; i++) {
      a += bytes[i] ?? 0;
      b += a;
    }
    a %= MOD;
    b %= MOD;
  }
  return ((b << 16) | a) >>> 0;
}

/** zlib stream (RFC 1950) containing only STORED deflate blocks (RFC 1951 BTYPE=00). */
function zlibStored(data: Uint8Array): Uint8Array {
  const MAX_BLOCK = 65535;
  const blocks = Math.max(1, Math.ceil(data.length / MAX_BLOCK));
  const out = new Uint8Array(2 + blocks * 5 + data.length + 4);
  const view = new DataView(out.buffer);
  out[0] = 0x78; // CMF: deflate, 32K window
  out[1] = 0x01; // FLG: no dict, fastest; (0x7801 % 31 === 0)
  let o = 2;
  for (let blk = 0; blk < blocks; blk++) {
    const start = blk * MAX_BLOCK;
    const len = Math.min(MAX_BLOCK, data.length - start);
    out[o++] = blk === blocks - 1 ? 1 : 0; // BFINAL + BTYPE=00
    view.setUint16(o, len, true);
    view.setUint16(o + 2, ~len & 0xffff, true);
    o += 4;
    out.set(data.subarray(start, start + len), o);
    o += len;
  }
  view.setUint32(o, adler32(data), false);
  return out;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length, false);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length), false);
  return out;
}

function encodeGreyPng(pixels: Uint8Array, width: number, height: number): Uint8Array {
  const raw = new Uint8Array(height * (width + 1));
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter: None
    raw.set(pixels.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  }
  const ihdr = new Uint8Array(13);
  const hv = new DataView(ihdr.buffer);
  hv.setUint32(0, width, false);
  hv.setUint32(4, height, false);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // colour type: greyscale
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter method
  ihdr[12] = 0; // interlace: none
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", zlibStored(raw)),
    pngChunk("IEND", new Uint8Array(0)),
  ];
  let total = 0;
  for (const p of parts) total += p.length;
  const png = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    png.set(p, o);
    o += p.length;
  }
  return png;
}

/**
 * Renders `text` (4-6 chars from CAPTCHA_ALPHABET) as a PNG image. `noise` is random bytes
 * (at least 64) used for all jitter so output is deterministic for equal inputs.
 */
export function renderCaptchaPng(text: string, noise: Uint8Array): Uint8Array {
  validate(text, noise);
  const pixels = renderPixels(text, makeRng(noise));
  return encodeGreyPng(pixels, CAPTCHA_WIDTH, CAPTCHA_HEIGHT);
}
