/**
 * Plain (unsigned) cookies that remember a display choice for a year, made by Remix's
 * createCookie so server-rendered pages are right at first paint. Readers validate the value:
 * a missing, unreadable or tampered cookie reads as null.
 */
import { createCookie, type Cookie } from "@remix-run/cloudflare";

const YEAR = 60 * 60 * 24 * 365;

export function preferenceCookie(name: string): Cookie {
  return createCookie(name, { path: "/", sameSite: "lax", secure: true, httpOnly: true, maxAge: YEAR });
}

/** The cookie's parsed value in this request, or null. */
export async function readCookie(cookie: Cookie, request: Request): Promise<unknown> {
  const header = request.headers.get("cookie");
  if (!header?.includes(`${cookie.name}=`)) return null;
  return cookie.parse(header).catch(() => null);
}
