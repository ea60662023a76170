/**
 * Messages by route (issue 22): a page's HTML carries only the sections of its language's messages
 * (the top-level keys of locales/<lang>/common.json) that its routes render. Each route names its
 * sections in `handle.i18n` (remix-i18next's convention); on a page's document request the Worker
 * matches its routes (route-handles.server.ts) and the root loader sends their sections plus
 * ALWAYS_SECTIONS. The browser fetches the rest of its
 * language once the page is idle (/locales/<lang>?v=<version>, cached for good), so the pages it
 * navigates to find their texts. tests/unit/i18n-sections.test.ts holds every route's list to the
 * keys its modules name (scripts/i18n-sections.mjs).
 */

/**
 * Sections every page carries: the frame (tab bar, live badge, toasts, the error page) and the
 * keys that reach a page as data from the server (an outcome's error, a ledger line's memo, a
 * notice, the closed-company page).
 */
export const ALWAYS_SECTIONS = ["common", "errors", "tabs", "live", "status", "notice", "memo"] as const;

/** What a route's `handle` may say about its messages. */
export interface I18nHandle {
  i18n?: string | readonly string[];
}

/** The sections a page needs: ALWAYS_SECTIONS and every matched route's `handle.i18n`. */
export function sectionsOfHandles(handles: readonly unknown[]): Set<string> {
  const sections = new Set<string>(ALWAYS_SECTIONS);
  for (const handle of handles) {
    const named = (handle as I18nHandle | undefined)?.i18n;
    if (typeof named === "string") sections.add(named);
    else if (Array.isArray(named)) for (const s of named) sections.add(s);
  }
  return sections;
}

/** The messages of the named sections only (same order as the messages). */
export function pickSections<T extends Record<string, unknown>>(messages: T, sections: ReadonlySet<string>): Partial<T> {
  const picked: Record<string, unknown> = {};
  for (const key of Object.keys(messages)) if (sections.has(key)) picked[key] = messages[key];
  return picked as Partial<T>;
}

/** The section of a message key ("trade.buy" → "trade"). */
export function sectionOf(key: string): string {
  const dot = key.indexOf(".");
  return dot < 0 ? key : key.slice(0, dot);
}

/** Where the browser fetches a language's whole messages (the version makes the address immutable). */
export function messagesUrl(lang: string, version: string): string {
  return `/locales/${lang}?v=${version}`;
}
