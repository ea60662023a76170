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
