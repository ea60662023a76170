import { toBase64 } from "~/lib/encoding";
import { describe, it, expect } from "vitest";
import { inflateSync } from "node:zlib";
import { CAPTCHA_ALPHABET, CAPTCHA_HEIGHT, CAPTCHA_WIDTH, renderCaptchaPng } from "../../app/lib/captcha-image";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

interface Chunk {
  type: string;
  data: Uint8Array;
  crc: number;
  /** bytes covered by the CRC: type + data */
  crcInput: Uint8Array;
}

function noiseFrom(seed: number, length = 64): Uint8Array {
  // Small deterministic generator so tests do not depend on crypto randomness.
  const out = new Uint8Array(length);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    out[i] = s & 0xff;
  }
  return out;
}

function readChunks(png: Uint8Array): Chunk[] {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const chunks: Chunk[] = [];
  let o = 8;
  while (o < png.length) {
    const len = view.getUint32(o);
    const type = String.fromCharCode(...png.subarray(o + 4, o + 8));
    const data = png.subarray(o + 8, o + 8 + len);
    const crc = view.getUint32(o + 8 + len);
    chunks.push({ type, data, crc, crcInput: png.subarray(o + 4, o + 8 + len) });
    o += 12 + len;
  }
  expect(o).toBe(png.length);
  return chunks;
}

function referenceCrc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function rawScanlines(png: Uint8Array): Uint8Array {
  const idat = readChunks(png).filter((c) => c.type === "IDAT");
  const total = idat.reduce((n, c) => n + c.data.length, 0);
  const joined = new Uint8Array(total);
  let o = 0;
  for (const c of idat) {
    joined.set(c.data, o);
    o += c.data.length;
  }
  return new Uint8Array(inflateSync(joined));
}

function pixels(png: Uint8Array): Uint8Array {
  const raw = rawScanlines(png);
  const px = new Uint8Array(CAPTCHA_WIDTH * CAPTCHA_HEIGHT);
  for (let y = 0; y < CAPTCHA_HEIGHT; y++) {
    px.set(raw.subarray(y * (CAPTCHA_WIDTH + 1) + 1, (y + 1) * (CAPTCHA_WIDTH + 1)), y * CAPTCHA_WIDTH);
  }
  return px;
}

describe("captcha-image", () => {
  it("exports the expected constants", () => {
    expect(CAPTCHA_ALPHABET).toBe("ABCDEFGHJKLMNPQRSTUVWXYZ23456789");
    expect(CAPTCHA_WIDTH).toBe(150);
    expect(CAPTCHA_HEIGHT).toBe(50);
  });

  it("starts with the PNG signature and an IHDR for 150x50 8-bit greyscale", () => {
    const png = renderCaptchaPng("K7WP3H", noiseFrom(1));
    expect(png).toBeInstanceOf(Uint8Array);
    expect(Array.from(png.subarray(0, 8))).toEqual(PNG_SIGNATURE);
    const chunks = readChunks(png);
    expect(chunks[0]?.type).toBe("IHDR");
    expect(chunks.map((c) => c.type)).toContain("IDAT");
    expect(chunks[chunks.length - 1]?.type).toBe("IEND");
    expect(chunks[chunks.length - 1]?.data.length).toBe(0);
    const ihdr = chunks[0]!.data;
    expect(ihdr.length).toBe(13);
    const dv = new DataView(ihdr.buffer, ihdr.byteOffset, ihdr.byteLength);
    expect(dv.getUint32(0)).toBe(150);
    expect(dv.getUint32(4)).toBe(50);
    expect(ihdr[8]).toBe(8); // bit depth
    expect(ihdr[9]).toBe(0); // colour type greyscale
    expect(ihdr[10]).toBe(0); // compression
    expect(ihdr[11]).toBe(0); // filter method
    expect(ihdr[12]).toBe(0); // no interlace
  });

  it("has a correct CRC32 on every chunk", () => {
    for (const text of ["ABCD", "ZZ2345", "HJK9M"]) {
      const chunks = readChunks(renderCaptchaPng(text, noiseFrom(text.length * 7 + 3)));
      expect(chunks.length).toBeGreaterThanOrEqual(3);
      for (const c of chunks) expect(c.crc).toBe(referenceCrc32(c.crcInput));
    }
  });

  it("stores a valid zlib stream of stored blocks with filter byte 0 per scanline", () => {
    const png = renderCaptchaPng("QRST", noiseFrom(42));
    const idat = readChunks(png).find((c) => c.type === "IDAT")!;
    // zlib header: deflate, header checksum ok
    expect(idat.data[0]).toBe(0x78);
    expect(((idat.data[0]! << 8) | idat.data[1]!) % 31).toBe(0);
    // first deflate block is STORED (BTYPE=00)
    expect((idat.data[2]! >> 1) & 3).toBe(0);

    const raw = rawScanlines(png); // inflateSync verifies the Adler-32
    expect(raw.length).toBe(CAPTCHA_HEIGHT * (CAPTCHA_WIDTH + 1));
    for (let y = 0; y < CAPTCHA_HEIGHT; y++) expect(raw[y * (CAPTCHA_WIDTH + 1)]).toBe(0);
  });

  it("is deterministic for equal inputs and differs for different text", () => {
    const noise = noiseFrom(7);
    const a = renderCaptchaPng("ABCDE", noise);
    const b = renderCaptchaPng("ABCDE", new Uint8Array(noise));
    expect(Array.from(a)).toEqual(Array.from(b));

    const c = renderCaptchaPng("ABCDF", noise);
    const pa = pixels(a);
    const pc = pixels(c);
    let diff = 0;
    for (let i = 0; i < pa.length; i++) if (pa[i] !== pc[i]) diff++;
    expect(diff).toBeGreaterThan(20);

    const d = renderCaptchaPng("ABCDE", noiseFrom(8));
    expect(Array.from(pixels(d))).not.toEqual(Array.from(pa));
  });

  it("is not blank: dark pixels exist in each horizontal fifth of the text area", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const noise = noiseFrom(seed * 2654435761);
      const len = 4 + (seed % 3);
      let text = "";
      for (let i = 0; i < len; i++) text += CAPTCHA_ALPHABET[noise[i]! % CAPTCHA_ALPHABET.length];
      const px = pixels(renderCaptchaPng(text, noise));

      let dark = 0;
      let light = 0;
      for (const v of px) {
        if (v < 110) dark++;
        if (v > 200) light++;
      }
      const total = px.length;
      expect(dark / total).toBeGreaterThan(0.06);
      expect(dark / total).toBeLessThan(0.5);
      // light background dominates
      expect(light / total).toBeGreaterThan(0.4);

      const left = 8;
      const right = CAPTCHA_WIDTH - 8;
      const fifth = (right - left) / 5;
      for (let f = 0; f < 5; f++) {
        const x0 = Math.floor(left + f * fifth);
        const x1 = Math.floor(left + (f + 1) * fifth);
        let n = 0;
        for (let y = 0; y < CAPTCHA_HEIGHT; y++) {
          for (let x = x0; x < x1; x++) if (px[y * CAPTCHA_WIDTH + x]! < 110) n++;
        }
        expect(n, `text ${text}, fifth ${f}`).toBeGreaterThan(15);
      }
    }
  });

  it("throws on invalid input", () => {
    const noise = noiseFrom(3);
    expect(() => renderCaptchaPng("ABC", noise)).toThrow(Error);
    expect(() => renderCaptchaPng("ABCDEFG", noise)).toThrow(Error);
    expect(() => renderCaptchaPng("", noise)).toThrow(Error);
    expect(() => renderCaptchaPng("ABC0", noise)).toThrow(Error);
    expect(() => renderCaptchaPng("ABCO", noise)).toThrow(Error);
    expect(() => renderCaptchaPng("ABC1", noise)).toThrow(Error);
    expect(() => renderCaptchaPng("ABCI", noise)).toThrow(Error);
    expect(() => renderCaptchaPng("abcd", noise)).toThrow(Error);
    expect(() => renderCaptchaPng("AB D", noise)).toThrow(Error);
    expect(() => renderCaptchaPng("ABCD", new Uint8Array(8))).toThrow(Error);
    expect(() => renderCaptchaPng("ABCD", noise)).not.toThrow();
    expect(() => renderCaptchaPng("ABCDEF", noise)).not.toThrow();
  });

  it("toBase64 matches Buffer base64 for several lengths", () => {
    for (const len of [0, 1, 2, 3, 4, 5, 100, 1000]) {
      const bytes = noiseFrom(len + 11, len);
      expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
    }
    const all = new Uint8Array(256).map((_, i) => i);
    expect(toBase64(all)).toBe(Buffer.from(all).toString("base64"));
    const png = renderCaptchaPng("WXYZ", noiseFrom(5));
    expect(toBase64(png)).toBe(Buffer.from(png).toString("base64"));
  });
});
