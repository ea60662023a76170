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

const parsedMessages = new Map<string, Messages>();

/**
 * The messages the root loader sends as one JSON text: as text the page's data decodes in one
 * step (as an object, every key of every section is a value the browser rebuilds while the page
 * hydrates); parsed once per language and kept.
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
