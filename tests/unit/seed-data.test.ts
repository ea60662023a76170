import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AREAS, CATEGORIES, INSTRUMENTS, NEWS } from "~/db/seed-data";
import { Side, checkEffectiveLeverage, isLiquidated, orderFigures, parsePrice, toScaled6 } from "~/domain/contract";

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

  it("sets up every instrument within the platform's maximum effective leverage at its price", () => {
    for (const i of INSTRUMENTS) {
      expect(
        checkEffectiveLeverage(
          { marginMode: i.marginMode, pricePrecision: i.pricePrecision, leverages: i.multiples },
          parsePrice(i.basePrice, i.pricePrecision)!,
        ),
        i.code,
      ).toBe("ok");
    }
  });

  it("every instrument's minimum order (the order form's default multiple) survives a move of 0.5% of its price against it", () => {
    for (const i of INSTRUMENTS) {
      const price = parsePrice(i.basePrice, i.pricePrecision)!;
      const terms = {
        marginMode: i.marginMode,
        contractSize: toScaled6(i.contractSize)!,
        pricePrecision: i.pricePrecision,
        feeRate: i.feeRate,
        feeMode: 2,
      };
      // the form starts at the first multiple offered (none under margin mode 1)
      const leverage = i.marginMode === 1 ? 0 : i.multiples[0]!;
      const move = Math.ceil(price / 200);
      for (const side of [Side.Buy, Side.Sell]) {
        const { liquidation } = orderFigures(terms, side, toScaled6(i.minLots)!, price, leverage);
        const against = side === Side.Buy ? price - move : price + move;
        expect(
          isLiquidated(side, liquidation, against),
          `${i.code} ${side === Side.Buy ? "buy" : "sell"} at ${i.basePrice}, liquidation ${liquidation}`,
        ).toBe(false);
      }
    }
  });

  it("names only images that exist in public/", () => {
    for (const i of INSTRUMENTS) expect(existsSync(path.join(publicDir, i.logo)), i.logo).toBe(true);
    for (const n of NEWS) expect(existsSync(path.join(publicDir, n.logo)), n.logo).toBe(true);
  });
});
