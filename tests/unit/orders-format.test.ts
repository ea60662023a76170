import { describe, expect, it } from "vitest";
import { formatAmount, formatProfit, formatSteps, liveMicros, liveSteps, profitClass } from "~/components/orders";

describe("order figures on screen (exact, from integers)", () => {
  it("writes prices at their instrument's precision with grouping", () => {
    expect(formatSteps(9_825_050, 2, "en-US")).toBe("98,250.50");
    expect(formatSteps(116_245, 5, "en-US")).toBe("1.16245");
    expect(formatSteps(25_000, 4, "en-US")).toBe("2.5000");
    expect(formatSteps(152_480, 3, "de-DE")).toBe("152,480");
  });

  it("keeps margins and fees to the micro, with at least 2 decimals", () => {
    expect(formatAmount(98_249_230, "en-US")).toBe("98.24923");
    expect(formatAmount(49_125, "en-US")).toBe("0.049125");
    expect(formatAmount(20_000_000, "en-US")).toBe("20.00");
    expect(formatAmount(1_234_567_800_000, "en-US")).toBe("1,234,567.80");
  });

  it("signs profits (colour is never the only signal)", () => {
    expect(formatProfit(1_250_000, "en-US")).toBe("+1.25");
    expect(formatProfit(-400_000, "en-US")).toBe("-0.40");
    expect(formatProfit(1_400, "en-US")).toBe("0.00");
    expect(profitClass(0)).toBe("up");
    expect(profitClass(-1)).toBe("down");
  });

  it("reads the socket's amounts from their decimal text (strings, or numbers from older servers), never through float arithmetic", () => {
    expect(liveMicros(0.1 + 0.2)).toBeNull(); // 0.30000000000000004: more than 6 decimals, not a pushed figure
    expect(liveMicros(-12.34)).toBe(-12_340_000);
    expect(liveMicros(1234.5)).toBe(1_234_500_000);
    expect(liveMicros(0)).toBe(0);
    expect(liveMicros("-12.34")).toBe(-12_340_000);
    expect(liveMicros("1234.50")).toBe(1_234_500_000);
    expect(liveMicros("1e3")).toBeNull();
    expect(liveSteps(98250.5, 2)).toBe(9_825_050);
    expect(liveSteps(1.16245, 5)).toBe(116_245);
    expect(liveSteps(1.162451, 5)).toBeNull();
    expect(liveSteps(-1, 2)).toBeNull();
  });
});
