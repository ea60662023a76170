/**
 * Language on the server: remix-i18next detects it (the `lang` header of API clients, then the
 * `lang` cookie, then Accept-Language mapped to the spec's codes, then hk) and gives fixed
 * t functions for action messages, flash toasts and e-mails.
 */
import { RemixI18Next } from "remix-i18next/server";
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, languageFromAcceptLanguage, normalizeLanguage, type LanguageCode } from "~/i18n/config";
import { NAMESPACE } from "~/i18n/namespace";
import { pickSections } from "~/i18n/sections";
import { resources } from "~/i18n/resources";
import { preferenceCookie, readCookie } from "~/lib/cookies.server";

/** The language chosen on /language (spec §2), remembered for a year. */
export const langCookie = preferenceCookie("lang");

async function readLanguageCookie(request: Request): Promise<string | null> {
  const value = await readCookie(langCookie, request);
  return typeof value === "string" ? value : null;
}

export async function detectLanguage(request: Request): Promise<LanguageCode> {
  return (
    normalizeLanguage(request.headers.get("lang")) ??
    normalizeLanguage(await readLanguageCookie(request)) ??
    languageFromAcceptLanguage(request.headers.get("accept-language")) ??
    DEFAULT_LANGUAGE
  );
}

export const i18n = new RemixI18Next({
  detection: {
    supportedLanguages: LANGUAGE_CODES,
    fallbackLanguage: DEFAULT_LANGUAGE,
    order: ["custom"],
    findLocale: (request) => detectLanguage(request),
  },
  i18next: {
    resources,
    defaultNS: NAMESPACE,
    ns: [NAMESPACE],
    fallbackLng: false,
    interpolation: { escapeValue: false },
  },
});

export type ServerT = (key: string, options?: Record<string, unknown>) => string;

const fixed = new Map<LanguageCode, Promise<ServerT>>();

/** A t function fixed to a language (cached per language: the resources never change at run time). */
export function fixedT(lang: LanguageCode): Promise<ServerT> {
  let t = fixed.get(lang);
  if (!t) {
    t = i18n.getFixedT(lang, NAMESPACE).then((fn) => fn as unknown as ServerT);
    fixed.set(lang, t);
  }
  return t;
}

export function messagesFor(lang: LanguageCode) {
  return resources[lang][NAMESPACE];
}

const messagesJson = new Map<LanguageCode, string>();

/** A language's messages as the JSON text the root loader sends (built once per language). */
export function messagesJsonFor(lang: LanguageCode): string {
  let json = messagesJson.get(lang);
  if (json === undefined) messagesJson.set(lang, (json = JSON.stringify(messagesFor(lang))));
  return json;
}

const versions = new Map<LanguageCode, string>();

/**
 * A short hash of a language's messages (FNV-1a, 32 bits): the version in the address the browser
 * fetches them from (/locales/<lang>?v=…), so that the address can be cached for good.
 */
export function messagesVersion(lang: LanguageCode): string {
  let version = versions.get(lang);
  if (version === undefined) {
    const json = messagesJsonFor(lang);
    let h = 0x811c9dc5;
    for (let i = 0; i < json.length; i++) h = Math.imul(h ^ json.charCodeAt(i), 0x01000193);
    versions.set(lang, (version = (h >>> 0).toString(36)));
  }
  return version;
}

const sectionsJson = new Map<string, string>();

/** The JSON text of some sections of a language's messages (kept per language and set of sections). */
export function sectionsJsonFor(lang: LanguageCode, sections: ReadonlySet<string>): string {
  const key = `${lang}:${[...sections].sort().join(",")}`;
  let json = sectionsJson.get(key);
  if (json === undefined) {
    json = JSON.stringify(pickSections(messagesFor(lang), sections));
    if (sectionsJson.size > 2_000) sectionsJson.clear();
    sectionsJson.set(key, json);
  }
  return json;
}
