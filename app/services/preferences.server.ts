/** Display preferences kept in plain cookies so server-rendered pages are right at first paint. */
export type Theme = "light" | "dark";
export const THEME_COOKIE = "theme";

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const [k, ...rest] = part.trim().split("=");
    if (k === name) {
      try {
        return decodeURIComponent(rest.join("="));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The remembered theme, or null to follow the device (prefers-color-scheme in CSS). */
export function readTheme(request: Request): Theme | null {
  const value = readCookie(request, THEME_COOKIE);
  return value === "light" || value === "dark" ? value : null;
}

export function themeCookie(theme: Theme) {
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=31536000; SameSite=Lax; Secure`;
}

export function langCookieHeader(lang: string) {
  return `lang=${lang}; Path=/; Max-Age=31536000; SameSite=Lax; Secure`;
}
