/**
 * The devices a user signs in from (issue 24): a sign-in from a device the account has not used
 * before e-mails the user, in their language, with the device and the time, so a stolen password
 * shows itself. A browser is known by a long-lived random cookie of its own (HttpOnly, never the
 * session); an API client, which keeps no cookie, by its user agent and network. Only the SHA-256 of
 * either is stored. The first device of an account (its registration) sends nothing.
 */
import { createCookie } from "@remix-run/cloudflare";
import type { AppContext } from "~/context.server";
import { randomToken, sha256Hex } from "~/lib/encoding";
import { emailUser } from "~/services/notify.server";

export const DEVICE_COOKIE = "__Host-bourse_device";
const DEVICE_MAX_AGE_S = 400 * 24 * 60 * 60;
const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;

const cookie = createCookie(DEVICE_COOKIE, { httpOnly: true, secure: true, sameSite: "lax", path: "/", maxAge: DEVICE_MAX_AGE_S });

/** How a sign-in's device is known: the browser's cookie (kept or made now), or an API client. */
export type Device = { kind: "browser"; id: string; fresh: boolean } | { kind: "api" };

/** The browser's device: its cookie's id, or a new one (then `fresh`: the answer sets the cookie). */
export async function browserDevice(request: Request): Promise<Device> {
  const header = request.headers.get("cookie");
  if (header?.includes(DEVICE_COOKIE)) {
    const value: unknown = await cookie.parse(header).catch(() => null);
    if (typeof value === "string" && DEVICE_ID.test(value)) return { kind: "browser", id: value, fresh: false };
  }
  return { kind: "browser", id: randomToken(16), fresh: true };
}

/** The Set-Cookie of a browser device that did not have its cookie yet (else null). */
export function deviceSetCookie(device: Device): Promise<string> | null {
  return device.kind === "browser" && device.fresh ? cookie.serialize(device.id) : null;
}

/**
 * Records the device of a sign-in (or a registration) and answers whether the account had signed in
 * from other devices but never from this one: then the user is e-mailed in the background.
 */
export async function signedInFrom(ctx: AppContext, userId: number, device: Device, now = Date.now()): Promise<boolean> {
  // upstream mode: the backend holds the users and tells them itself
  if (ctx.config.platform.kind === "upstream") return false;
  const key = device.kind === "browser" ? `browser:${device.id}` : `api:${ctx.client.userAgent}|${ctx.client.key}`;
  const [upserted, counted] = await ctx.d1.batch([
    ctx.d1
      .prepare(
        `INSERT INTO user_devices (user_id, device_id, user_agent, first_seen_at, last_seen_at) VALUES (?1, ?2, ?3, ?4, ?4)
         ON CONFLICT (user_id, device_id) DO UPDATE SET last_seen_at = excluded.last_seen_at, user_agent = excluded.user_agent
         RETURNING first_seen_at AS firstSeen`,
      )
      .bind(userId, await sha256Hex(key), ctx.client.userAgent, now),
    ctx.d1.prepare("SELECT COUNT(*) AS n FROM user_devices WHERE user_id = ?1").bind(userId),
  ]);
  const firstSeen = (upserted!.results[0] as { firstSeen: number } | undefined)?.firstSeen;
  const devices = (counted!.results[0] as { n: number }).n;
  const isNew = firstSeen === now && devices > 1;
  if (isNew) {
    emailUser(
      ctx,
      "new-device",
      () => ctx.d1.prepare("SELECT email, lang FROM users WHERE id = ?1").bind(userId).first<{ email: string | null; lang: string }>(),
      (t) => {
        const values = {
          device: ctx.client.userAgent.slice(0, 120) || "?",
          address: ctx.client.ip ?? "?",
          time: `${new Date(now).toISOString().slice(0, 16).replace("T", " ")} UTC`,
        };
        return { subject: t("mail.new_device_subject", values), body: t("mail.new_device_body", values) };
      },
    );
  }
  return isNew;
}
