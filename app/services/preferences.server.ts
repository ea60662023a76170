/**
 * Display preferences and remembered choices, in plain cookies (lib/cookies.server.ts): theme,
 * hidden amounts and the instrument last opened on /trade (the language's cookie belongs to
 * i18n/i18n.server.ts, which reads it first). Values are validated when read.
 */
import { preferenceCookie, readCookie } from "~/lib/cookies.server";

export type Theme = "light" | "dark";

export const themeCookie = preferenceCookie("theme");
export const hideAssetsCookie = preferenceCookie("hide_assets");
export const tradeCodeCookie = preferenceCookie("trade_code");

/** The remembered theme, or null to follow the device (prefers-color-scheme in CSS). */
export async function readTheme(request: Request): Promise<Theme | null> {
  const value = await readCookie(themeCookie, request);
  return value === "light" || value === "dark" ? value : null;
}

export async function readHideAssets(request: Request): Promise<boolean> {
  return (await readCookie(hideAssetsCookie, request)) === true;
}

export async function readTradeCode(request: Request): Promise<string | null> {
  const value = await readCookie(tradeCodeCookie, request);
  return typeof value === "string" && value.length <= 32 ? value : null;
}
