/**
 * Language on the server: remix-i18next detects it (the `lang` header of API clients, then the
 * `lang` cookie, then Accept-Language mapped to the spec's codes, then hk) and gives fixed
 * t functions for action messages, flash toasts and e-mails.
 */
import { RemixI18Next } from "remix-i18next/server";
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, languageFromAcceptLanguage, normalizeLanguage, type LanguageCode } from "~/i18n/config";
import { NAMESPACE } from "~/i18n/namespace";
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
