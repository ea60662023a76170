/**
 * Display preferences and remembered choices, in plain (unsigned) cookies made by Remix's
 * createCookie, so server-rendered pages are right at first paint: theme, language, hidden
 * amounts and the instrument last opened on /trade. Values are validated when read.
 */
import { createCookie } from "@remix-run/cloudflare";

export type Theme = "light" | "dark";

const YEAR = 60 * 60 * 24 * 365;
const options = { path: "/", sameSite: "lax" as const, secure: true, httpOnly: true, maxAge: YEAR };

export const themeCookie = createCookie("theme", options);
export const langCookie = createCookie("lang", options);
export const hideAssetsCookie = createCookie("hide_assets", options);
export const tradeCodeCookie = createCookie("trade_code", options);

async function read(cookie: ReturnType<typeof createCookie>, request: Request): Promise<unknown> {
  const header = request.headers.get("cookie");
  if (!header?.includes(`${cookie.name}=`)) return null;
  return cookie.parse(header).catch(() => null);
}

/** The remembered theme, or null to follow the device (prefers-color-scheme in CSS). */
export async function readTheme(request: Request): Promise<Theme | null> {
  const value = await read(themeCookie, request);
  return value === "light" || value === "dark" ? value : null;
}

export async function readLanguageCookie(request: Request): Promise<string | null> {
  const value = await read(langCookie, request);
  return typeof value === "string" ? value : null;
}

export async function readHideAssets(request: Request): Promise<boolean> {
  return (await read(hideAssetsCookie, request)) === true;
}

export async function readTradeCode(request: Request): Promise<string | null> {
  const value = await read(tradeCodeCookie, request);
  return typeof value === "string" && value.length <= 32 ? value : null;
}
