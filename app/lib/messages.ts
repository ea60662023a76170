/**
 * Error and notice keys travel as "key" or "key|arg" (e.g. "errors.code_wait|42"); this turns
 * them into text with whichever t function is at hand (server or browser).
 */
export type TLike = (key: string, options?: Record<string, unknown>) => string;

export function translateMessage(t: TLike, message: string | undefined | null): string {
  if (!message) return "";
  const [key, arg] = message.split("|");
  return t(key!, arg === undefined ? undefined : { seconds: arg, count: Number(arg), value: arg });
}

/** A language's messages (locales/<lang>/common.json): sections of keys and their texts. */
export type Messages = Record<string, unknown>;

/** The text of a key ("section.name", any depth) in a language's messages; undefined when missing. */
export function lookup(messages: Messages, key: string): string | undefined {
  let node: unknown = messages;
  let from = 0;
  for (;;) {
    const dot = key.indexOf(".", from);
    const part = dot < 0 ? key.slice(from) : key.slice(from, dot);
    node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
    if (dot < 0) return typeof node === "string" ? node : undefined;
    from = dot + 1;
  }
}

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** Fills a text's {{name}} placeholders (as i18next does, unescaped; a value not given leaves nothing). */
export function interpolate(text: string, values?: Record<string, unknown>): string {
  if (!values || !text.includes("{{")) return text;
  return text.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = values[name];
    return value === undefined || value === null ? "" : String(value);
  });
}

const parsedMessages = new Map<string, Messages>();

/**
 * The messages the root loader sends as one JSON text: as text the page's data decodes in one
 * step (as an object, every key of every section is a value the browser rebuilds while the page
 * hydrates); parsed once per text and kept.
 */
export function readMessages(json: string | undefined): Messages {
  if (!json) return {};
  let messages = parsedMessages.get(json);
  if (!messages) {
    messages = JSON.parse(json) as Messages;
    if (parsedMessages.size >= 4) parsedMessages.clear();
    parsedMessages.set(json, messages);
  }
  return messages;
}

/**
 * In the browser, the sections of each language it has so far: a page's HTML brings those of its
 * routes (app/i18n/sections.ts), the rest arrive once the page is idle (app/i18n/react.tsx). One
 * object per language, kept and added to, so that every page after the first finds its texts.
 */
const browserMessages = new Map<string, Messages>();

/** Whether the browser has a language's whole set (fetched after the first page). */
const complete = new Set<string>();

/** Adds sections to the browser's object of a language (those it has already stay) and returns it. */
function mergeInto(lang: string, sections: Messages): Messages {
  let store = browserMessages.get(lang);
  if (!store) browserMessages.set(lang, (store = {}));
  for (const key in sections) if (!(key in store)) store[key] = sections[key];
  return store;
}

/**
 * The messages of the root's language: on the server, those the root's data holds; in the
 * browser, those and every section it had already (the same object each time for a language).
 */
export function rootMessages(root: { lang?: string; messages?: string } | undefined | null): Messages {
  const own = readMessages(root?.messages);
  return typeof document === "undefined" || !root?.lang ? own : mergeInto(root.lang, own);
}

/** Adds a language's whole set (the browser's fetch after the first page). */
export function addMessages(lang: string, all: Messages): void {
  mergeInto(lang, all);
  complete.add(lang);
}

export function hasAllMessages(lang: string): boolean {
  return complete.has(lang);
}
