/**
 * Registration, sign-in, the demo account and logout (spec §2, §4 session), shared by the form
 * actions and the JSON API. Inputs arrive parsed by the forms' schemas (app/forms/auth.ts); errors
 * are i18n keys keyed by form field. Every account identifier is used in its canonical form
 * (app/domain/identity.ts): sign-in, registration, codes and every limit key see one spelling per account.
 */
import { and, eq } from "drizzle-orm";
import type { AppContext } from "~/context.server";
import { users } from "~/db/schema";
import { identifierWords, parseAccount } from "~/domain/identity";
import type { LoginInput, RegisterInput, SendCodeInput } from "~/forms/auth";
import { consumeCaptcha, consumeCode } from "~/services/codes.server";
import { grantDemoBalances } from "~/services/demo.server";
import { hashPassword, needsRehash, verifyPassword } from "~/services/password.server";
import { passwordProblem } from "~/services/password-policy.server";
import { Backoffs, Limits, clear, hit, release, reserve, reserveWithBackoff } from "~/services/rate-limit.server";
import { createSession, revokeSession } from "~/services/session.server";
import { fail, type Outcome } from "~/services/outcome";
import { upstreamLogin, upstreamLogout } from "~/services/upstream/sessions.server";
import { upstreamRegister, upstreamSendRegisterCode } from "~/services/upstream/accounts.server";
import { signedInFrom, type Device } from "./devices.server";
import { accountExists, insertUser, resolveMobile, verifyRegType } from "./accounts.server";
import { sendCodeTo } from "./codes.server";

/** Sign-in attempts per account that need no captcha in a window (then every attempt needs one). */
export const LOGIN_FREE_ATTEMPTS = Limits.loginPerAccount.max;

/**
 * Registration code by e-mail or SMS. When the address already has an account, its owner gets a
 * message saying so instead of a code, and the answer is the same: registration does not reveal
 * which addresses have accounts.
 */
export async function sendRegisterCode(ctx: AppContext, input: SendCodeInput): Promise<Outcome<{ seconds: number }>> {
  if (ctx.config.platform.kind === "upstream") return upstreamSendRegisterCode(ctx, input);
  let target: string;
  if (input.type === "email") target = input.account;
  else {
    const mobile = await resolveMobile(ctx, input);
    if (!mobile.ok) return fail(mobile.errors);
    target = mobile.value;
  }
  const exists = await accountExists(ctx, input.type === "email" ? { email: target } : { mobile: target });
  const notice = exists ? { subject: ctx.t("mail.account_exists_subject"), body: ctx.t("mail.account_exists_body") } : undefined;
  return sendCodeTo(ctx, target, input.type === "email" ? "email" : "sms", "register", notice);
}

export async function register(
  ctx: AppContext,
  input: RegisterInput,
  device: Device = { kind: "api" },
): Promise<Outcome<{ token: string; user: { id: number; uid: string } }>> {
  if (!(await hit(ctx.d1, `register:c:${ctx.client.key}`, Limits.registerPerClient)))
    return fail({ form: "errors.too_many_requests" }, 429);
  // upstream mode: the backend checks the code and holds the user (ADR 024)
  if (ctx.config.platform.kind === "upstream") {
    const registered = await upstreamRegister(ctx, input);
    return registered.ok
      ? { ok: true, value: { token: registered.value.token, user: { id: registered.value.userId, uid: "" } } }
      : registered;
  }
  let email: string | null = null;
  let mobile: string | null = null;
  let areaId: number | null = null;
  if (input.type === "email") email = input.account;
  else {
    const resolved = await resolveMobile(ctx, input);
    if (!resolved.ok) return fail(resolved.errors);
    mobile = resolved.value;
    areaId = resolved.areaId;
  }
  const weak = passwordProblem(input.password, identifierWords({ email, mobile }));
  if (weak) return fail({ password: weak });
  let referrerId: number | null = null;
  if (input.invite_code) {
    const [referrer] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.inviteCode, input.invite_code), eq(users.isDemo, 0)));
    if (!referrer) return fail({ invite_code: "errors.invite_invalid" });
    referrerId = referrer.id;
  }
  // The code (or captcha) is checked before anything about the account is said.
  if ((await verifyRegType(ctx)) === 2) {
    if (!input.captcha) return fail({ captcha: "errors.required_captcha" });
    if (!(await consumeCaptcha(ctx.d1, input.key ?? "", input.captcha))) return fail({ captcha: "errors.captcha_invalid" });
  } else {
    if (!input.sms_code) return fail({ sms_code: "errors.required_code" });
    if (!(await consumeCode(ctx.d1, (email ?? mobile)!, "register", input.sms_code))) return fail({ sms_code: "errors.code_invalid" });
  }
  const passwordHash = await hashPassword(input.password, ctx.config.pepper, ctx.config.pbkdf2Iterations);
  const created = await insertUser(ctx, { email, mobile, areaId, passwordHash, referrerId });
  if (!created.ok) return fail({ account: "errors.account_exists" });
  const token = await createSession(ctx.d1, created.id, ctx.client.userAgent);
  // the account's first device: later sign-ins from other devices are told to the user
  await signedInFrom(ctx, created.id, device);
  return { ok: true, value: { token, user: { id: created.id, uid: created.uid } } };
}

/**
 * Sign-in, throttled without a lock a stranger could impose (OWASP ASVS 2.2.1):
 *  - per client: a growing delay once it has made 10 attempts in an hour (only that client waits);
 *  - per account: after LOGIN_FREE_ATTEMPTS attempts in an hour, each attempt needs a picture
 *    captcha (the owner can always solve one).
 * Both slots are reserved atomically before the password hash is computed, so a parallel burst
 * gets at most LOGIN_FREE_ATTEMPTS guesses evaluated without captchas.
 */
export async function login(
  ctx: AppContext,
  input: LoginInput,
  device: Device = { kind: "api" },
): Promise<Outcome<{ token: string; userId: number }>> {
  // upstream mode: the backend checks the password and holds the user (ADR 024)
  if (ctx.config.platform.kind === "upstream") return upstreamLogin(ctx, input);
  const account = parseAccount(input.account, input.login_type ?? "");
  const clientSlot = `login:c:${ctx.client.key}`;
  const client = await reserveWithBackoff(ctx.d1, clientSlot, Backoffs.loginPerClient);
  if (!client.ok) return fail({ form: `errors.login_wait|${client.waitSeconds}` }, 429);
  const human = input.key && input.captcha ? await consumeCaptcha(ctx.d1, input.key, input.captcha) : false;
  if (input.captcha && !human) return fail({ captcha: "errors.captcha_invalid" }, 400, true);
  // An account that cannot exist still takes an account slot (same answers as a real one).
  const accountSlot = `login:a:${account ? `${account.kind}:${account.value}` : `raw:${input.account.toLowerCase()}`}`;
  const attempt = await reserve(ctx.d1, accountSlot, Limits.loginPerAccount);
  if (attempt > LOGIN_FREE_ATTEMPTS && !human) return fail({ captcha: "errors.captcha_required" }, 429, true);
  const [row] = account
    ? await ctx.db
        .select({ id: users.id, passwordHash: users.passwordHash, status: users.status })
        .from(users)
        .where(eq(account.kind === "email" ? users.email : users.mobile, account.value))
    : [];
  const valid = await verifyPassword(input.password, row?.passwordHash, ctx.config.pepper, ctx.config.pbkdf2Iterations);
  if (!row || !valid || row.status !== 1) return fail({ form: "errors.login_failed" }, 400, attempt >= LOGIN_FREE_ATTEMPTS);
  await Promise.all([clear(ctx.d1, accountSlot), release(ctx.d1, clientSlot)]);
  if (row.passwordHash && needsRehash(row.passwordHash, ctx.config.pbkdf2Iterations)) {
    const rehashed = await hashPassword(input.password, ctx.config.pepper, ctx.config.pbkdf2Iterations);
    await ctx.db.update(users).set({ passwordHash: rehashed }).where(eq(users.id, row.id));
  }
  const token = await createSession(ctx.d1, row.id, ctx.client.userAgent);
  await signedInFrom(ctx, row.id, device);
  return { ok: true, value: { token, userId: row.id } };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Demo (mock) account: resumes the demo user of this browser's demo id, or creates one with
 * simulated starting balances granted through the ledger (one grant per user, idempotent).
 * Creating one is limited per client.
 */
export async function demoLogin(
  ctx: AppContext,
  demoId: string | null | undefined,
): Promise<Outcome<{ token: string; demoId: string; userId: number }>> {
  const id = demoId && UUID_RE.test(demoId.toLowerCase()) ? demoId.toLowerCase() : null;
  let userId: number | null = null;
  let resolvedId = id;
  if (id) {
    const [row] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.demoId, id), eq(users.isDemo, 1), eq(users.status, 1)));
    userId = row?.id ?? null;
  }
  if (!userId) {
    if (!(await hit(ctx.d1, `demo:c:${ctx.client.key}`, Limits.demoPerClient))) return fail({ form: "errors.too_many_requests" }, 429);
    resolvedId = crypto.randomUUID();
    const created = await insertUser(ctx, { isDemo: true, demoId: resolvedId });
    if (!created.ok) return fail({ form: "errors.try_again" }, 409);
    userId = created.id;
    await grantDemoBalances(ctx, userId);
  }
  const token = await createSession(ctx.d1, userId, ctx.client.userAgent);
  return { ok: true, value: { token, demoId: resolvedId!, userId } };
}

/** Ends the session of this token (web logout and the API's POST /api/user/logout). */
export async function logout(ctx: AppContext, token: string | null) {
  if (ctx.config.platform.kind === "upstream") return upstreamLogout(ctx, token);
  if (token) await revokeSession(ctx.d1, token);
}
