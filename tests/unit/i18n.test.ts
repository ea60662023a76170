import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LANGUAGE_CODES, languageFromAcceptLanguage, normalizeLanguage } from "~/i18n/config";

const root = path.resolve(import.meta.dirname, "../../locales");

function keys(obj: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === "object" ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

function flat(obj: Record<string, unknown>, prefix = ""): Record<string, string> {
  return Object.fromEntries(
    Object.entries(obj).flatMap(([k, v]) =>
      v && typeof v === "object" ? Object.entries(flat(v as Record<string, unknown>, `${prefix}${k}.`)) : [[`${prefix}${k}`, String(v)]],
    ),
  );
}

const load = (lang: string) => JSON.parse(readFileSync(path.join(root, lang, "common.json"), "utf8")) as Record<string, unknown>;

describe("locales", () => {
  const en = load("en");
  const enKeys = keys(en).sort();

  it("has a folder for exactly the 18 languages of the spec", () => {
    expect(readdirSync(root).sort()).toEqual([...LANGUAGE_CODES].sort());
    expect(LANGUAGE_CODES).toHaveLength(18);
  });

  for (const lang of LANGUAGE_CODES) {
    it(`${lang}: same keys as English, no missing, no extra, no empty`, () => {
      const messages = load(lang);
      const got = keys(messages).sort();
      expect(
        got.filter((k) => !enKeys.includes(k)),
        "extra keys",
      ).toEqual([]);
      expect(
        enKeys.filter((k) => !got.includes(k)),
        "missing keys",
      ).toEqual([]);
      for (const [k, v] of Object.entries(flat(messages))) expect(v.trim(), `${lang}:${k}`).not.toBe("");
    });

    it(`${lang}: keeps every {{placeholder}} of the English text`, () => {
      const target = flat(load(lang));
      for (const [k, v] of Object.entries(flat(en))) {
        for (const p of v.match(/\{\{\w+\}\}/g) ?? []) expect(target[k], `${lang}:${k}`).toContain(p);
      }
    });
  }

  it("is translated: most strings of every non-English language differ from English", () => {
    const english = flat(en);
    for (const lang of LANGUAGE_CODES.filter((l) => l !== "en")) {
      const target = flat(load(lang));
      const same = Object.keys(english).filter((k) => target[k] === english[k] && !/^(Bourse|UID|USD|OK)$/.test(english[k]!));
      expect(same.length / Object.keys(english).length, `${lang} untranslated: ${same.slice(0, 5).join(", ")}`).toBeLessThan(0.15);
    }
  });
});

describe("language detection", () => {
  it("maps tw to hk and refuses unknown codes", () => {
    expect(normalizeLanguage("tw")).toBe("hk");
    expect(normalizeLanguage("AR")).toBe("ar");
    expect(normalizeLanguage("xx")).toBeNull();
  });

  it("maps Accept-Language tags to the spec's codes by quality", () => {
    expect(languageFromAcceptLanguage("ja-JP,ja;q=0.9,en;q=0.5")).toBe("jp");
    expect(languageFromAcceptLanguage("es-MX")).toBe("spa");
    expect(languageFromAcceptLanguage("xx, vi;q=0.4, ko;q=0.6")).toBe("kr");
    expect(languageFromAcceptLanguage("zh-TW")).toBe("hk");
    expect(languageFromAcceptLanguage("xx")).toBeNull();
  });
});
