/**
 * The desktop site (spec §9: desktop = no mobile user-agent strings; the desktop site lives on the
 * pc subdomain). Bourse stays one responsive app: when a pc host is configured, pages on that
 * host get the desktop layout, and desktop browsers asking for a page on any other host are
 * sent to the same path and query on the pc host (lib/redirect.ts desktopRedirect). Off when no pc
 * host is configured.
 */

/** Words that only phones' and tablets' browsers put in their user agents. */
const MOBILE_UA =
  /Mobi|Android|iPhone|iPad|iPod|\bPhone\b|Windows Phone|IEMobile|BlackBerry|\bBB10\b|Opera Mini|Opera Mobi|webOS|hpwOS|Kindle|Silk\/|Symbian|Fennec|MQQBrowser|UCBrowser|\bJUC\b|MicroMessenger|HarmonyOS|OpenHarmony|KAIOS|Tizen|MeeGo|Nokia|\bPlayBook\b/i;

/** A desktop browser: a user agent is present and carries none of the mobile words. */
export function isDesktopUserAgent(userAgent: string | null | undefined): boolean {
  const ua = (userAgent ?? "").trim();
  return ua.length > 0 && !MOBILE_UA.test(ua);
}

/** A configured pc host: a lower-case host name with an optional port, or null when the setting is empty (off). */
export function parsePcHost(raw: string | null | undefined): string | null {
  const host = (raw ?? "").trim().toLowerCase();
  if (!host) return null;
  if (!/^(?=.{1,253}(?::|$))[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::[0-9]{1,5})?$/.test(host)) {
    throw new Error("PC_HOST must be a host name, optionally with a port (e.g. pc.example.com)");
  }
  return host;
}

/** Is this request on the pc host (so the page gets the desktop layout)? */
export function onPcHost(url: URL, pcHost: string | null): boolean {
  return pcHost !== null && url.host.toLowerCase() === pcHost;
}
