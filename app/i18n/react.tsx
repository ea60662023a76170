/**
 * The browser side of i18n: the root loader sends the current language's messages, and the
 * root wraps the app in an i18next instance built from them (same code on server and client,
 * so hydration matches). Components call useTranslation() from react-i18next.
 */
import i18next, { type i18n as I18n } from "i18next";
import { useMemo, type ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { NAMESPACE } from "~/i18n/namespace";

export function I18nProvider({ lang, messages, children }: { lang: string; messages: Record<string, unknown>; children: ReactNode }) {
  const instance = useMemo<I18n>(() => {
    const i = i18next.createInstance();
    void i.init({
      lng: lang,
      fallbackLng: false,
      ns: [NAMESPACE],
      defaultNS: NAMESPACE,
      resources: { [lang]: { [NAMESPACE]: messages } },
      interpolation: { escapeValue: false },
      initImmediate: false,
      react: { useSuspense: false },
    });
    return i;
  }, [lang, messages]);
  return <I18nextProvider i18n={instance}>{children}</I18nextProvider>;
}
