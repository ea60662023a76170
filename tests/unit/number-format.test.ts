import { describe, expect, it } from "vitest";
import { LANGUAGES } from "~/i18n/config";
import { formatMoney } from "~/domain/money";
import { TABLED_LOCALES } from "~/domain/number-format";
import { formatChange, formatNyTime, formatPrice } from "~/lib/format";

/** A repeatable stream of numbers in [0, 1). */
function randoms(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

describe("numbers in each language's locale, written without building an Intl formatter", () => {
  it("covers the locale of every language", () => {
    for (const l of LANGUAGES) expect(TABLED_LOCALES, l.code).toContain(l.locale);
  });

  it("rounds the decimal a price reads as, half away from zero, and groups as the locale does", () => {
    expect(formatPrice(83.450745, 5, "en-US")).toBe("83.45075");
    expect(formatPrice(950597.7535, 3, "en-US")).toBe("950,597.754");
    expect(formatPrice(-2.5, 0, "en-US")).toBe("-3");
    expect(formatPrice(0.999, 2, "en-US")).toBe("1.00");
    expect(formatPrice(1234567.5, 2, "hi-IN")).toBe("12,34,567.50");
    expect(formatPrice(5642.3, 2, "es-ES")).toBe("5642,30");
    expect(formatPrice(15642.3, 2, "es-ES")).toBe("15.642,30");
    expect(formatPrice(Number.NaN, 2, "en-US")).toBe("—");
    expect(formatMoney(5_642_300_000, "es-ES")).toBe("5.642,30");
    expect(formatChange(1.254, "en-US")).toBe("+1.25%");
    expect(formatChange(-0.004, "en-US")).toBe("0.00%");
    expect(formatChange(-0.4, "de-DE")).toBe("-0,40%");
  });

  it("writes prices, money and changes as Intl.NumberFormat does, on random numbers in every tabled locale", () => {
    const random = randoms(7);
    for (const locale of TABLED_LOCALES) {
      const price = (precision: number) =>
        new Intl.NumberFormat(locale, { minimumFractionDigits: precision, maximumFractionDigits: precision });
      const change = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" });
      const whole = new Intl.NumberFormat(locale, { useGrouping: true, maximumFractionDigits: 0 });
      const decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === "decimal")!.value;
      for (let i = 0; i < 1_500; i++) {
        const precision = Math.floor(random() * 7);
        const scale = 10 ** (1 + Math.floor(random() * 9));
        const sign = random() < 0.15 ? -1 : 1;
        const value =
          (sign * Math.round(random() * scale * 10 ** precision)) / 10 ** precision + (random() < 0.3 ? 0.5 / 10 ** precision : 0);
        expect(formatPrice(value, precision, locale), `${value} at ${precision} in ${locale}`).toBe(price(precision).format(value));
        const pct = (sign * Math.round(random() * 10 ** (1 + Math.floor(random() * 5)))) / 1000;
        expect(formatChange(pct, locale), `${pct}% in ${locale}`).toBe(`${change.format(pct)}%`);
        const micros = sign * Math.floor(random() * scale * 1_000_000);
        const cents = Math.trunc(Math.abs(micros) / 10_000);
        const intl = `${micros < 0 && cents > 0 ? "-" : ""}${whole.format(Math.floor(cents / 100))}${decimal}${String(cents % 100).padStart(2, "0")}`;
        expect(formatMoney(Math.trunc(micros / 10_000) * 10_000, locale), `${micros} micros in ${locale}`).toBe(intl);
      }
    }
  });
});

describe("candle times in New York, in each language's locale, without an Intl date formatter", () => {
  it("writes what Intl.DateTimeFormat writes (New York time, across both daylight-saving changes)", () => {
    const random = randoms(11);
    const from = Date.UTC(2024, 0, 1);
    const span = Date.UTC(2029, 0, 1) - from;
    for (const locale of TABLED_LOCALES) {
      const time = new Intl.DateTimeFormat(locale, { timeZone: "America/New_York", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
      const date = new Intl.DateTimeFormat(locale, { timeZone: "America/New_York", month: "2-digit", day: "2-digit" });
      for (let i = 0; i < 800; i++) {
        const at = from + Math.floor(random() * span);
        expect(formatNyTime(at, locale, false), `${new Date(at).toISOString()} in ${locale}`).toBe(time.format(at));
        expect(formatNyTime(at, locale, true), `${new Date(at).toISOString()} in ${locale}`).toBe(date.format(at));
      }
    }
    // the hour around the spring change (2026-03-08 07:00 UTC is 03:00 New York, daylight time)
    expect(formatNyTime(Date.UTC(2026, 2, 8, 6, 59), "en-US", false)).toBe("01:59");
    expect(formatNyTime(Date.UTC(2026, 2, 8, 7, 0), "en-US", false)).toBe("03:00");
    expect(formatNyTime(Date.UTC(2026, 10, 7, 14, 5), "es-ES", true)).toBe("7/11");
  });
});
