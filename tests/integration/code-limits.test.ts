// Verification codes under attack (issue 19 §3): a refused code request counts only against the
// client that sent it, never against the account it names. Only codes actually issued use the
// account's allowance, so a stranger's flood cannot keep the owner's reset codes (or an
// operator's step-up) closed; parallel bursts still get no more codes than the allowance.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { issueCode, withdrawCode } from "~/services/codes.server";
import { Limits } from "~/services/rate-limit.server";
import { ORIGIN, createUser, form, latestCode, sessionFor, signedSessionCookie, uniqueEmail } from "./helpers";

const PASSWORD = "correct-horse-1";
let ipCounter = 0;
/** A fresh client address (CF-Connecting-IP: Cloudflare sets it, clients cannot). */
const newIp = () => `192.0.${Math.floor(++ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;

/** POST /api/notify/send_email type 2 without a session: a reset code for `to`, from a client. */
function askResetCode(to: string, ip: string) {
  return SELF.fetch(`${ORIGIN}/api/notify/send_email`, {
    method: "POST",
    headers: { host: "localhost", "content-type": "application/json", lang: "en", "cf-connecting-ip": ip },
    body: JSON.stringify({ to, type: "2" }),
  });
}

async function envelope(res: Response) {
  return (await res.json()) as { code: number; msg: string; data: Record<string, unknown> | null };
}

/** Mails (codes) the outbox holds for an address. */
async function mails(to: string) {
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM outbox WHERE `to` = ?1").bind(to).first<{ n: number }>())!.n;
}

/** A minute goes by: the 60 s resend interval of every code kind for this address is over. */
async function minutePasses(target: string) {
  await env.DB.prepare("UPDATE rate_limits SET blocked_until = 0 WHERE key LIKE 'code:%' AND key LIKE '%:' || ?1").bind(target).run();
}

describe("a refused code request never closes the account's allowance", () => {
  it("a stranger floods a victim's reset codes from many clients, then keeps asking from a client past its limit: the victim still gets a code at once and resets", async () => {
    const victim = await createUser({ password: PASSWORD });
    const email = victim.email!;
    // a parallel flood from 40 addresses gives one code (the resend interval), the rest are refused
    const flood = await Promise.all(Array.from({ length: 40 }, () => askResetCode(email, newIp()).then(envelope)));
    expect(flood.filter((b) => b.code === 1).length).toBe(1);
    expect(await mails(email)).toBe(1);

    // the stranger's own client uses up its allowance (unknown addresses get the same answers)…
    const stranger = newIp();
    for (let i = 0; i < Limits.codePerClient.max; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, Limits.codePerClient.max - i) }, () => askResetCode(uniqueEmail("nobody"), stranger)),
      );
    }
    // …then keeps asking for the victim's code, minute after minute: every request is refused
    for (let i = 0; i < 10; i++) {
      await minutePasses(email);
      const refused = await askResetCode(email, stranger);
      expect(refused.status).toBe(429);
      expect((await envelope(refused)).code).toBe(0);
    }
    expect(await mails(email)).toBe(1);

    // the victim, from their own client, gets a code right away (the refusals armed no interval) and resets
    const own = await envelope(await askResetCode(email, newIp()));
    expect(own, own.msg).toMatchObject({ code: 1 });
    expect(await mails(email)).toBe(2);
    const reset = await SELF.fetch(`${ORIGIN}/api/user/forget_password`, {
      method: "POST",
      headers: { host: "localhost", "content-type": "application/json", lang: "en" },
      body: JSON.stringify({
        type: "email",
        account: email,
        new_password: "sunflower-lamp-42",
        secondary_password: "sunflower-lamp-42",
        auth_code: (await latestCode(email))!,
      }),
    });
    expect(await envelope(reset)).toMatchObject({ code: 1 });
  }, 60_000);

  it("parallel bursts from many clients never get more codes issued than the per-account allowance", async () => {
    const victim = await createUser({ password: PASSWORD });
    const email = victim.email!;
    for (let round = 0; round < Limits.codePerTarget.max + 3; round++) {
      await minutePasses(email);
      const burst = await Promise.all(Array.from({ length: 15 }, () => askResetCode(email, newIp()).then(envelope)));
      expect(burst.filter((b) => b.code === 1).length).toBeLessThanOrEqual(1);
    }
    expect(await mails(email)).toBe(Limits.codePerTarget.max);
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM verification_codes WHERE target = ?1 AND purpose = 'reset'")
      .bind(email)
      .first<{ n: number }>();
    expect(live!.n).toBe(Limits.codePerTarget.max);
  });

  it("unknown and existing addresses get the same answers, refusals included", async () => {
    const victim = await createUser({ password: PASSWORD });
    const nobody = uniqueEmail("nobody");
    const answers = async (to: string) => {
      const out: string[] = [];
      for (let i = 0; i < Limits.codePerTarget.max + 2; i++) {
        const burst = await Promise.all([askResetCode(to, newIp()), askResetCode(to, newIp())]);
        for (const res of burst) out.push(`${res.status}:${(await envelope(res)).code}`);
        await minutePasses(to);
      }
      return out.sort();
    };
    expect(await answers(victim.email!)).toEqual(await answers(nobody));
  });
});

describe("a code that could not be delivered was never issued", () => {
  it("gives back the address's slot and interval and voids the code; the client's slot stays spent", async () => {
    const email = uniqueEmail("undelivered");
    const ip = newIp();
    const first = await issueCode(env.DB, ip, email, "reset");
    expect(first.ok).toBe(true);
    expect((await issueCode(env.DB, ip, email, "reset")).ok).toBe(false); // within the 60 s
    await withdrawCode(env.DB, email, "reset");
    const live = await env.DB.prepare("SELECT COUNT(*) AS n FROM verification_codes WHERE target = ?1 AND consumed_at IS NULL")
      .bind(email)
      .first<{ n: number }>();
    expect(live!.n).toBe(0);
    for (let i = 0; i < Limits.codePerTarget.max; i++) {
      expect((await issueCode(env.DB, newIp(), email, "reset")).ok, `code ${i + 1}`).toBe(true);
      await minutePasses(email);
    }
    expect(await issueCode(env.DB, newIp(), email, "reset")).toEqual({ ok: false, reason: "limited" });
  });
});

describe("the operator's step-up", () => {
  async function operator() {
    const user = await createUser();
    await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(user.id).run();
    return { user, cookie: await signedSessionCookie(await sessionFor(user.id)) };
  }

  it("pressing Send code again and again (refused presses included) never locks the operator out; its allowance is larger than a user's", async () => {
    const op = await operator();
    const press = () => form("/admin/verify?from=%2Fadmin", { intent: "send-code" }, { cookie: op.cookie });
    let sent = 0;
    // a busy operator: more fresh codes in an hour than a user may get, each after a few impatient presses
    for (let round = 0; round < Limits.codePerTarget.max + 3; round++) {
      await minutePasses(op.user.email!);
      expect((await press()).status).toBe(200);
      sent += 1;
      for (let again = 0; again < 3; again++) expect((await press()).status).toBe(429); // within the 60 s
    }
    expect(await mails(op.user.email!)).toBe(sent);
    expect(sent).toBeGreaterThan(Limits.codePerTarget.max);
    const verified = await form(
      "/admin/verify?from=%2Fadmin%2Fwithdrawals",
      { intent: "verify", code: (await latestCode(op.user.email!))! },
      { cookie: op.cookie },
    );
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toBe("/admin/withdrawals");

    // a user asking for password-change codes the same way gets only the user's allowance
    const user = await createUser({ password: PASSWORD });
    const cookie = await signedSessionCookie(await sessionFor(user.id));
    for (let round = 0; round < Limits.codePerTarget.max + 3; round++) {
      await minutePasses(user.email!);
      await form("/mine/password", { intent: "send-code" }, { cookie, headers: { "cf-connecting-ip": newIp() } });
    }
    expect(await mails(user.email!)).toBe(Limits.codePerTarget.max);
  }, 60_000);
});
