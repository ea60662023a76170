/**
 * The 18 languages of spec §9. `code` is the spec's language value (also the locale folder,
 * the cookie value and the `lang` header); `locale` formats numbers and dates (Arabic, Burmese
 * and Czech use en-US formats, as the spec says); `htmlLang` is the real language for <html lang>.
 */
export const LANGUAGES = [
  { code: "hk", locale: "zh-HK", htmlLang: "zh-Hant-HK", label: "繁體中文", flag: "🇭🇰" },
  { code: "en", locale: "en-US", htmlLang: "en", label: "English", flag: "🇺🇸" },
  { code: "jp", locale: "ja-JP", htmlLang: "ja", label: "日本語", flag: "🇯🇵" },
  { code: "kr", locale: "ko-KR", htmlLang: "ko", label: "한국어", flag: "🇰🇷" },
  { code: "th", locale: "th-TH", htmlLang: "th", label: "ไทย", flag: "🇹🇭" },
  { code: "vn", locale: "vi-VN", htmlLang: "vi", label: "Tiếng Việt", flag: "🇻🇳" },
  { code: "fr", locale: "fr-FR", htmlLang: "fr", label: "Français", flag: "🇫🇷" },
  { code: "de", locale: "de-DE", htmlLang: "de", label: "Deutsch", flag: "🇩🇪" },
  { code: "ru", locale: "ru-RU", htmlLang: "ru", label: "Русский", flag: "🇷🇺" },
  { code: "spa", locale: "es-ES", htmlLang: "es", label: "Español", flag: "🇪🇸" },
  { code: "pt", locale: "pt-BR", htmlLang: "pt-BR", label: "Português", flag: "🇧🇷" },
  { code: "ar", locale: "en-US", htmlLang: "ar", label: "العربية", flag: "🇸🇦" },
  { code: "it", locale: "it-IT", htmlLang: "it", label: "Italiano", flag: "🇮🇹" },
  { code: "tr", locale: "tr-TR", htmlLang: "tr", label: "Türkçe", flag: "🇹🇷" },
  { code: "id", locale: "id-ID", htmlLang: "id", label: "Bahasa Indonesia", flag: "🇮🇩" },
  { code: "my", locale: "en-US", htmlLang: "my", label: "မြန်မာ", flag: "🇲🇲" },
  { code: "hi", locale: "hi-IN", htmlLang: "hi", label: "हिन्दी", flag: "🇮🇳" },
  { code: "cs", locale: "en-US", htmlLang: "cs", label: "Čeština", flag: "🇨🇿" },
] as const;

export type LanguageCode = (typeof LANGUAGES)[number]["code"];
export const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as LanguageCode[];
export const DEFAULT_LANGUAGE: LanguageCode = "hk";
export const RTL_LANGUAGES: ReadonlySet<string> = new Set(["ar"]);

export function isLanguage(value: unknown): value is LanguageCode {
  return typeof value === "string" && (LANGUAGE_CODES as string[]).includes(value);
}

export function languageInfo(code: LanguageCode) {
  return LANGUAGES.find((l) => l.code === code) ?? LANGUAGES[0];
}

/**
 * The locale for unit words ("30 days", "30 seconds"): the language itself, with the digits of
 * its number locale. Arabic, Burmese and Czech format numbers as en-US, but their words are
 * their own (ar-u-nu-latn: "30 يومًا").
 */
export function unitLocaleOf(code: LanguageCode): string {
  const info = languageInfo(code);
  return info.locale === "en-US" && info.htmlLang !== "en" ? `${info.htmlLang}-u-nu-latn` : info.locale;
}

/** Maps a stored or requested value to a supported code: tw maps to hk (spec §3). */
export function normalizeLanguage(value: string | null | undefined): LanguageCode | null {
  if (!value) return null;
  const v = value.trim().toLowerCase();
  if (v === "tw") return "hk";
  return isLanguage(v) ? v : null;
}

/** BCP 47 primary tags of Accept-Language mapped to the spec's codes (public/sw.js keeps a copy; a unit test holds them equal). */
export const ACCEPT_MAP: Record<string, LanguageCode> = {
  zh: "hk",
  en: "en",
  ja: "jp",
  ko: "kr",
  th: "th",
  vi: "vn",
  fr: "fr",
  de: "de",
  ru: "ru",
  es: "spa",
  pt: "pt",
  ar: "ar",
  it: "it",
  tr: "tr",
  id: "id",
  in: "id",
  my: "my",
  hi: "hi",
  cs: "cs",
};

export function languageFromAcceptLanguage(header: string | null): LanguageCode | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .map((part) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.find((p) => p.trim().startsWith("q="));
      return { tag: (tag ?? "").toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((x) => x.tag && x.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    const primary = tag.split("-")[0] ?? "";
    if (ACCEPT_MAP[primary]) return ACCEPT_MAP[primary];
  }
  return null;
}
