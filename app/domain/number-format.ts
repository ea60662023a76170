/**
 * Numbers written the way each language's locale writes them (CLDR, as Intl.NumberFormat writes
 * them), without building an Intl formatter: the first one a page builds costs a phone tens of
 * milliseconds (the locale's data is loaded) while the page hydrates, and live pages format many
 * figures on every tick. The table covers the locales of app/i18n/config.ts (all write Latin
 * digits); tests/unit/number-format.test.ts holds every entry equal to Intl on random numbers.
 * Other locales go through Intl.
 */

interface NumberStyle {
  decimal: string;
  group: string;
  /** Size of the groups after the first three (2 in hi-IN: 1,23,45,678). */
  secondary: number;
  /** Digits a number needs before its thousands are grouped: 5 where 1234 stays 1234 (es-ES, it-IT). */
  minDigits: 4 | 5;
}

const COMMA_DOT: NumberStyle = { decimal: ".", group: ",", secondary: 3, minDigits: 4 };
const DOT_COMMA: NumberStyle = { decimal: ",", group: ".", secondary: 3, minDigits: 4 };

const STYLES: Record<string, NumberStyle> = {
  "en-US": COMMA_DOT,
  "zh-HK": COMMA_DOT,
  "ja-JP": COMMA_DOT,
  "ko-KR": COMMA_DOT,
  "th-TH": COMMA_DOT,
  "hi-IN": { ...COMMA_DOT, secondary: 2 },
  "vi-VN": DOT_COMMA,
  "de-DE": DOT_COMMA,
  "pt-BR": DOT_COMMA,
  "tr-TR": DOT_COMMA,
  "id-ID": DOT_COMMA,
  "es-ES": { ...DOT_COMMA, minDigits: 5 },
  "it-IT": { ...DOT_COMMA, minDigits: 5 },
  "fr-FR": { decimal: ",", group: "\u202f", secondary: 3, minDigits: 4 },
  "ru-RU": { decimal: ",", group: "\u00a0", secondary: 3, minDigits: 4 },
};

/** The locales the table writes without Intl. */
export const TABLED_LOCALES = Object.keys(STYLES);

const intlCache = new Map<string, { always: Intl.NumberFormat; auto: Intl.NumberFormat; decimal: string }>();

/** Intl's formatters for a locale outside the table, built once. */
function intlFor(locale: string) {
  let f = intlCache.get(locale);
  if (!f) {
    const auto = new Intl.NumberFormat(locale);
    const always = new Intl.NumberFormat(locale, { useGrouping: true, maximumFractionDigits: 0 });
    const decimal = auto.formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
    intlCache.set(locale, (f = { always, auto, decimal }));
  }
  return f;
}

function groupDigits(digits: string, style: NumberStyle, always: boolean): string {
  if (digits.length < (always ? 4 : style.minDigits)) return digits;
  let out = digits.slice(-3);
  let rest = digits.slice(0, -3);
  while (rest.length > 0) {
    out = `${rest.slice(-style.secondary)}${style.group}${out}`;
    rest = rest.slice(0, -style.secondary);
  }
  return out;
}

/**
 * An exact decimal string ("-1234.50") in a locale's grouping and decimal separator, its digits
 * kept as they are. `always` groups every thousand (money: 1.234,50 in es-ES too); `auto` follows
 * the locale's own rule (es-ES writes 1234,50 but 12.345,50), as Intl does by default.
 */
export function localizeDecimal(text: string, locale: string, grouping: "always" | "auto" = "always"): string {
  const negative = text.startsWith("-");
  const [whole = "0", frac] = (negative ? text.slice(1) : text).split(".");
  const style = STYLES[locale];
  let grouped: string;
  let decimal: string;
  if (style) {
    grouped = groupDigits(whole, style, grouping === "always");
    decimal = style.decimal;
  } else {
    const f = intlFor(locale);
    grouped = f[grouping].format(BigInt(whole));
    decimal = f.decimal;
  }
  return `${negative ? "-" : ""}${grouped}${frac ? decimal + frac : ""}`;
}

/**
 * `value` rounded to `decimals` digits, as an exact decimal string: the shortest decimal that
 * reads back as `value` ("83.450745"), rounded half away from zero as Intl rounds it (83.45075 at
 * 5). null for numbers written with an exponent (far outside prices and changes).
 */
export function roundedDecimal(value: number, decimals: number): string | null {
  const shortest = String(Math.abs(value));
  if (shortest.includes("e")) return null;
  const [int = "0", frac = ""] = shortest.split(".");
  let digits = int + frac.slice(0, decimals).padEnd(decimals, "0");
  if ((frac[decimals] ?? "0") >= "5") digits = (BigInt(digits) + 1n).toString().padStart(decimals + 1, "0");
  const whole = decimals > 0 ? digits.slice(0, -decimals) : digits;
  const text = decimals > 0 ? `${whole}.${digits.slice(-decimals)}` : whole;
  return value < 0 || Object.is(value, -0) ? `-${text}` : text;
}
