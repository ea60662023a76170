/**
 * Translation in pages and components: `const { t } = useTranslation()`. The root loader sends the
 * current language's messages (in a page's HTML, the sections its routes render:
 * app/i18n/sections.ts) and the root provides a t function over them, the same on the server and
 * in the browser, so hydration matches. A key is "section.name"; {{name}} placeholders are filled
 * from the values given, as i18next does on the server (app/i18n/i18n.server.ts, which keeps
 * i18next for action messages and e-mails). The browser needs no i18n library: this is a lookup
 * and a replace (i18next and react-i18next were about 17 KB of every page's first load).
 *
 * Once the first page is idle the browser fetches its language's whole set (an immutable address,
 * so once per release) for the pages it navigates to. A navigation that starts before it arrives
 * asks for it at once, and the page renders again when it does.
 */
import { useNavigation } from "@remix-run/react";
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { messagesUrl, sectionOf } from "~/i18n/sections";
import { addMessages, hasAllMessages, interpolate, lookup, type Messages, type TLike } from "~/lib/messages";

export interface Translation {
  /** The text of a key in the page's language, placeholders filled; the key itself when missing. */
  t: TLike;
  lang: string;
}

const TranslationContext = createContext<Translation>({ t: (key) => key, lang: "" });

export function useTranslation(): Translation {
  return useContext(TranslationContext);
}

/** After the page's load, the fetch waits for an idle moment, at most this long. */
const IDLE_TIMEOUT_MS = 3_000;

const fetching = new Map<string, Promise<Messages | null>>();

/** The whole set, once per language (again after a failure). */
function fetchAll(lang: string, version: string): Promise<Messages | null> {
  let pending = fetching.get(lang);
  if (!pending)
    fetching.set(
      lang,
      (pending = fetch(messagesUrl(lang, version), { credentials: "omit" })
        .then((r) => (r.ok ? (r.json() as Promise<Messages>) : null))
        .catch(() => null)
        .then((all) => (all || fetching.delete(lang), all))),
    );
  return pending;
}

const whenIdle = (run: () => void) =>
  typeof requestIdleCallback === "function" ? requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS }) : setTimeout(run, 200);

export function I18nProvider({
  lang,
  messages,
  version,
  children,
}: {
  lang: string;
  /** The language's messages (in the browser, the object that grows as sections arrive). */
  messages: Messages;
  version?: string;
  children: ReactNode;
}) {
  /** A navigation began before the whole set arrived: a key missing meanwhile is not a bug. */
  const raced = useRef(false);
  /** Bumped when the whole set arrives after such a navigation: every text renders again. */
  const [arrived, setArrived] = useState(0);
  const value = useMemo<Translation>(
    () => ({
      lang,
      t: (key, values) => {
        const text = lookup(messages, key);
        if (text !== undefined) return interpolate(text, values);
        // a key the page renders but its sections do not hold (a route's handle.i18n too short)
        if (typeof document !== "undefined" && (!raced.current || sectionOf(key) in messages)) console.error(`missing message: ${key}`);
        return key;
      },
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `arrived` renews t so that its users render again
    [lang, messages, arrived],
  );

  const navigating = useNavigation().state !== "idle";
  useEffect(() => {
    if (!version || hasAllMessages(lang)) return;
    const load = (): void => {
      // offline: nothing to ask for (a failed fetch is only noise); asked for when the network is back
      if (!navigator.onLine) return void addEventListener("online", () => whenIdle(load), { once: true });
      void fetchAll(lang, version).then((all) => {
        if (!all || hasAllMessages(lang)) return;
        addMessages(lang, all);
        if (raced.current) setArrived((n) => n + 1);
      });
    };
    if (navigating) {
      raced.current = true;
      load();
    } else if (document.readyState === "complete") whenIdle(load);
    else addEventListener("load", () => whenIdle(load), { once: true });
  }, [lang, version, navigating]);

  return <TranslationContext.Provider value={value}>{children}</TranslationContext.Provider>;
}
