import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AREAS, CATEGORIES, INSTRUMENTS, NEWS } from "~/db/seed-data";

const publicDir = path.resolve(import.meta.dirname, "../../public");

describe("seed data", () => {
  it("has 200+ areas with unique ids and digit-only calling codes; the second entry is the default", () => {
    expect(AREAS.length).toBeGreaterThanOrEqual(200);
    expect(new Set(AREAS.map((a) => a.id)).size).toBe(AREAS.length);
    for (const a of AREAS) expect(a.globalCode).toMatch(/^\d{1,4}$/);
    expect(AREAS[1]).toMatchObject({ code: "HK", globalCode: "852" });
  });

  it("has about 20 instruments in at least 4 categories with realistic fields", () => {
    expect(INSTRUMENTS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(INSTRUMENTS.map((i) => i.categoryId)).size).toBeGreaterThanOrEqual(4);
    for (const i of INSTRUMENTS) {
      expect(CATEGORIES.some((c) => c.id === i.categoryId)).toBe(true);
      expect(i.basePrice.split(".")[1]?.length ?? 0).toBe(i.pricePrecision);
      expect(Number(i.lotStep)).toBeGreaterThan(0);
      expect(Number(i.minLots)).toBeGreaterThan(0);
      expect(i.marginMode === 1 || i.multiples.length > 0).toBe(true);
    }
  });

  it("names only images that exist in public/", () => {
    for (const i of INSTRUMENTS) expect(existsSync(path.join(publicDir, i.logo)), i.logo).toBe(true);
    for (const n of NEWS) expect(existsSync(path.join(publicDir, n.logo)), n.logo).toBe(true);
  });
});
