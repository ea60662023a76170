/**
 * Pure rules of the content screens (news, announcements, support chat): stored bodies become
 * plain-text paragraphs (never HTML), ids are read strictly, and the chat setting decides where
 * the customer-service button leads.
 */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : "";
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * A stored body (plain text, or the small markup subset operators paste: p, br, div, headings,
 * lists, inline emphasis) as paragraphs of plain text: block ends and blank lines separate
 * paragraphs, script/style blocks are dropped with their content, every other tag is removed
 * and entities decoded. The result is rendered as text, so nothing in it can become markup.
 */
export function textParagraphs(content: string): string[] {
  const text = content
    .replace(/\r\n?/g, "\n")
    .replace(/<(script|style|iframe|object|template)\b[\s\S]*?(<\/\1\s*>|$)/gi, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|h[1-6]|li|blockquote|section|article)\s*>/gi, "\n\n")
    .replace(/<!--[\s\S]*?(-->|$)/g, "")
    .replace(/<\/?[a-z][^>]*>?/gi, "");
  return decodeEntities(text)
    .split(/\n[ \t]*\n/)
    .map((p) =>
      p
        .replace(/[ \t]+/g, " ")
        .replace(/ *\n */g, "\n")
        .trim(),
    )
    .filter(Boolean);
}

/** A body as one line of plain text (summaries, API `desc` fallbacks), at most `max` characters. */
export function plainSummary(content: string, max = 160): string {
  const text = textParagraphs(content).join(" ").replace(/\s+/g, " ");
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** An id typed in a URL or a call: digits only, a positive safe integer; anything else is null (→ 404). */
export function parseId(raw: string | null | undefined): number | null {
  if (!raw || !/^[0-9]{1,12}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** A page number: 1 when missing or malformed, capped so a huge number cannot build a huge offset. */
export function parsePage(raw: string | null | undefined, max = 10_000): number {
  if (!raw || !/^[0-9]{1,6}$/.test(raw)) return 1;
  return Math.min(Math.max(Number(raw), 1), max);
}

export const ServiceLinkType = { Frame: 1, Dialog: 2, Navigate: 3 } as const;

/** An http(s) URL with a host and no credentials, or null. */
export function httpUrl(link: string): URL | null {
  try {
    const url = new URL(link.trim());
    if ((url.protocol !== "https:" && url.protocol !== "http:") || !url.hostname || url.username || url.password) return null;
    return url;
  } catch {
    return null;
  }
}

/** What /mine/email shows as the company's address: no markup or quote characters in it. */
export function isShownEmail(email: string): boolean {
  return /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(email);
}

export type ChatTarget =
  /** service_link_type 2: a dialog (a page without JavaScript) showing the link with a copy button. */
  | { kind: "dialog"; link: string }
  /** service_link_type 3: the browser goes to the link itself (http/https only). */
  | { kind: "navigate"; link: string }
  /** Otherwise: /mine/chat embeds the chat frame; `src` is null when no usable link is configured. */
  | { kind: "frame"; src: string | null; origin: string | null };

export interface ChatUser {
  uid: string;
  email: string | null;
}

/**
 * Where the customer-service button leads (spec §7): type 2 → a dialog with the link, type 3 →
 * the link (only http/https; anything else falls back to the embedded chat), otherwise the
 * embedded frame, told who is asking: `clientid` (the user's uid), and `metadata` with the uid
 * and the e-mail (JSON). Visitors get the frame without identity.
 */
export function chatTarget(setting: { service_link: string; service_link_type: number }, user: ChatUser | null): ChatTarget {
  const link = setting.service_link.trim();
  const url = httpUrl(link);
  if (setting.service_link_type === ServiceLinkType.Dialog && link) return { kind: "dialog", link };
  if (setting.service_link_type === ServiceLinkType.Navigate && url) return { kind: "navigate", link: url.href };
  if (!url) return { kind: "frame", src: null, origin: null };
  if (user) {
    url.searchParams.set("clientid", user.uid);
    url.searchParams.set("metadata", JSON.stringify({ uid: user.uid, email: user.email ?? "" }));
  }
  return { kind: "frame", src: url.href, origin: url.origin };
}

/** What a page's chat buttons need: the kind and, for the dialog and the external link, the link (no user data). */
export type ChatButton = { kind: "dialog" | "navigate"; link: string } | { kind: "page" };

export function chatButtonOf(target: ChatTarget): ChatButton {
  return target.kind === "frame" ? { kind: "page" } : target;
}

/** The invite link of spec §2 in the form that works without JavaScript (the old '/#/register' form is still honoured by the page). */
export function inviteLink(origin: string, inviteCode: string): string {
  return `${origin}/register?invite_code=${encodeURIComponent(inviteCode)}`;
}

/** The spec's older link form ('/#/register?invite_code=…'): the same-site path its fragment names, or null. */
export function legacyHashPath(hash: string): string | null {
  return /^#\/register(?:[?#]|$)/.test(hash) ? hash.slice(1) : null;
}

/** Feedback (/feedback): the message's and the contact's longest lengths. */
export const FEEDBACK_MAX = 1000;
export const FEEDBACK_CONTACT_MAX = 100;
/** A feedback message's status: new, or read by an operator. */
export const FeedbackStatus = { New: 0, Read: 1 } as const;

/** Longest news or announcement body an operator can write (form fields are read up to 4,000 characters), and summary. */
export const BODY_MAX = 4_000;
export const SUMMARY_MAX = 300;
