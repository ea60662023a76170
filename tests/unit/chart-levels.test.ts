import { describe, expect, it } from "vitest";
import { levelEdge, placeLevels, type LevelView } from "~/lib/chart-levels";

// a plot from y 10 to y 278 showing 49,000 – 51,000, labels 14 tall (the SVG's units)
const VIEW: LevelView = { lo: 49_000, hi: 51_000, top: 10, bottom: 278, labelHeight: 14 };
const level = (key: string, price: number) => ({ key, price });
const overlaps = (a: number, b: number) => Math.abs(a - b) < VIEW.labelHeight;

describe("chart levels: which lines are in range", () => {
  it("a price inside the range (both ends included) is a line at its price, its label just above it", () => {
    expect(levelEdge(49_000, VIEW)).toBeNull();
    expect(levelEdge(51_000, VIEW)).toBeNull();
    const [open] = placeLevels([level("open", 50_000)], VIEW);
    expect(open).toMatchObject({ edge: null, y: 144 });
    expect(open!.labelTop).toBe(130);
  });

  it("a price above the range is a marker at the top edge, inside the plot", () => {
    const [tp] = placeLevels([level("tp", 60_000)], VIEW);
    expect(tp).toMatchObject({ edge: "top", y: 10, labelTop: 10 });
  });

  it("a price below the range is a marker at the bottom edge, inside the plot", () => {
    const [sl] = placeLevels([level("sl", 40_000)], VIEW);
    expect(sl).toMatchObject({ edge: "bottom", y: 278, labelTop: 264 });
  });
});

describe("chart levels: labels never overlap", () => {
  it("several levels out of range stack their labels at their edges (highest at the very top, lowest at the very bottom)", () => {
    const placed = placeLevels(
      [level("sl", 40_000), level("liq", 45_000), level("tp", 60_000), level("tp2", 70_000), level("open", 50_000)],
      VIEW,
    );
    const at = (key: string) => placed.find((p) => p.level.key === key)!;
    expect(at("tp2")).toMatchObject({ edge: "top", labelTop: 10 });
    expect(at("tp")).toMatchObject({ edge: "top", labelTop: 24 });
    expect(at("liq")).toMatchObject({ edge: "bottom", labelTop: 250 });
    expect(at("sl")).toMatchObject({ edge: "bottom", labelTop: 264 });
    expect(at("open")).toMatchObject({ edge: null, labelTop: 130 });
    const tops = placed.map((p) => p.labelTop!);
    for (let i = 0; i < tops.length; i++)
      for (let j = i + 1; j < tops.length; j++) expect(overlaps(tops[i]!, tops[j]!), `${i} ${j}`).toBe(false);
    for (const t of tops) {
      expect(t).toBeGreaterThanOrEqual(VIEW.top);
      expect(t + VIEW.labelHeight).toBeLessThanOrEqual(VIEW.bottom);
    }
  });

  it("lines close together push their labels apart; a line at the top edge keeps its label inside the plot", () => {
    const placed = placeLevels([level("a", 50_000), level("b", 50_010), level("c", 51_000)], VIEW);
    const tops = placed.map((p) => p.labelTop!);
    expect(placed.every((p) => p.edge === null)).toBe(true);
    for (let i = 0; i < tops.length; i++) for (let j = i + 1; j < tops.length; j++) expect(overlaps(tops[i]!, tops[j]!)).toBe(false);
    expect(Math.min(...tops)).toBeGreaterThanOrEqual(VIEW.top);
  });

  it("more labels than fit: every marker and line is placed, the labels left over are not drawn (edge markers' labels first)", () => {
    const many = [...Array.from({ length: 30 }, (_, i) => level(`in${i}`, 49_000 + i * 60)), level("far", 90_000)];
    const placed = placeLevels(many, VIEW);
    expect(placed).toHaveLength(31);
    const drawn = placed.filter((p) => p.labelTop !== null).map((p) => p.labelTop!);
    expect(drawn).toHaveLength(Math.floor((VIEW.bottom - VIEW.top) / VIEW.labelHeight));
    expect(placed.find((p) => p.level.key === "far")!.labelTop).toBe(10);
    const sorted = [...drawn].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(VIEW.labelHeight);
  });
});
