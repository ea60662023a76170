/**
 * Accounts and sign-in use cases (spec §2 login/registration, §4 session, §5, §6), shared by the
 * form actions and the JSON API. Errors are i18n keys ("errors.*") keyed by form field.
 */
import * as v from "valibot";
import type { AppContext } from "~/context.server";
import type { FieldErrors } from "~/lib/validation";
import { AmendSchema, ForgotSchema, LoginSchema, RegisterSchema, SendCodeSchema, parseForm } from "~/lib/validation";
import { consumeCaptcha, consumeCode, issueCode, type CodePurpose } from "~/services/codes.server";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import { grantDemoBalances } from "~/services/demo.server";
import { ACCOUNT_KINDS } from "~/services/ledger.server";
import { notifier } from "~/services/notify.server";
import { hashPassword, needsRehash, verifyPassword } from "~/services/password.server";
import { Limits, clear, clientKey, hit, isLimited } from "~/services/rate-limit.server";
import { createSession, revokeAllSessions, type SessionUser } from "~/services/session.server";


export type Outcome<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors; status?: number };

const fail = (errors: FieldErrors, status = 400): { ok: false; errors: FieldErrors; status: number } => ({ ok: false, errors, status });

export async function verifyRegType(ctx: AppContext): Promise<number> {
  const row = await ctx.d1
    .prepare("SELECT verify_reg_type AS verifyRegType FROM base_settings WHERE company_id = ?1")
    .bind(MAIN_COMPANY_ID)
    .first<{ verifyRegType: number }>();
  return row?.verifyRegType ?? 1;
}

async function areaCode(ctx: AppContext, areaId: number): Promise<string | null> {
  const row = await ctx.d1.prepare("SELECT global_code AS g FROM areas WHERE id = ?1").bind(areaId).first<{ g: string }>();
  return row?.g ?? null;
}

/** The spec's mobile form: area code + '-' + number. */
export function mobileKey(globalCode: string, number: string) {
  return `${globalCode}-${number}`;
}

function randomUid() {
  const n = crypto.getRandomValues(new Uint32Array(1))[0]! % 90_000_000;
  return String(10_000_000 + n);
}

function randomInviteCode() {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return [...crypto.getRandomValues(new Uint8Array(8))].map((b) => alphabet[b % alphabet.length]).join("");
}

/**
 * Inserts a user and opens the three sub-accounts in one batch. Retries a few times on the
 * (rare) collision of a random uid or invite code; a duplicate e-mail/mobile is reported.
 */
async function insertUser(
  ctx: AppContext,
  fields: { email?: string | null; mobile?: string | null; areaId?: number | null; passwordHash?: string | null; referrerId?: number | null; isDemo?: boolean; demoId?: string | null; role?: "user" | "operator" },
): Promise<{ ok: true; id: number; uid: string } | { ok: false; duplicate: true }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const uid = randomUid();
    const inviteCode = randomInviteCode();
    const statements = [
      ctx.d1
        .prepare(
          `INSERT INTO users (uid, company_id, email, mobile, area_id, password_hash, invite_code, referrer_id, is_demo, demo_id, role, lang)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)`,
        )
        .bind(
          uid,
          MAIN_COMPANY_ID,
          fields.email ?? null,
          fields.mobile ?? null,
          fields.areaId ?? null,
          fields.passwordHash ?? null,
          inviteCode,
          fields.referrerId ?? null,
          fields.isDemo ? 1 : 0,
          fields.demoId ?? null,
          fields.role ?? "user",
          ctx.lang,
        ),
      ...ACCOUNT_KINDS.map((k) =>
        ctx.d1
          .prepare("INSERT INTO accounts (user_id, kind, account_type_id) VALUES ((SELECT id FROM users WHERE uid = ?1), ?2, ?3)")
          .bind(uid, k.kind, k.accountTypeId),
      ),
    ];
    try {
      await ctx.d1.batch(statements);
    } catch (error) {
      const message = String((error as Error).message);
      if (message.includes("users.email") || message.includes("users.mobile") || message.includes("users.demo_id")) {
        return { ok: false, duplicate: true };
      }
      if (message.includes("users.uid") || message.includes("users.invite_code")) continue;
      throw error;
    }
    const row = await ctx.d1.prepare("SELECT id FROM users WHERE uid = ?1").bind(uid).first<{ id: number }>();
    return { ok: true, id: row!.id, uid };
  }
  throw new Error("could not allocate a user id");
}

/** Sends a code for registration (or another purpose) by e-mail or SMS, in the user's language. */
export async function sendCode(
  ctx: AppContext,
  request: Request,
  data: Record<string, string>,
  purpose: CodePurpose = "register",
): Promise<Outcome<{ target: string; seconds: number }>> {
  const parsed = parseForm(SendCodeSchema, data);
  if (!parsed.ok) return fail(parsed.errors);
  let target = parsed.data.account;
  let channel: "email" | "sms" = "email";
  if (parsed.data.type === "mobile") {
    const code = await areaCode(ctx, parsed.data.area_id);
    if (!code) return fail({ area_id: "errors.required_area" });
    target = mobileKey(code, parsed.data.account);
    channel = "sms";
  }
  return deliverCode(ctx, request, target, channel, purpose, true);
}

async function deliverCode(
  ctx: AppContext,
  request: Request,
  target: string,
  channel: "email" | "sms",
  purpose: CodePurpose,
  send: boolean,
): Promise<Outcome<{ target: string; seconds: number }>> {
  const issued = await issueCode(ctx.d1, request, target, purpose);
  if (!issued.ok) {
    return issued.reason === "wait"
      ? fail({ sms_code: `errors.code_wait|${issued.seconds}` }, 429)
      : fail({ sms_code: "errors.too_many_requests" }, 429);
  }
  if (send) {
    const subject = ctx.t(`mail.${purpose}_subject`);
    const body = ctx.t("mail.code_body", { code: issued.code, minutes: 10 });
    try {
      await notifier(ctx.config, ctx.d1).send({ channel, to: channel === "sms" ? `+${target.replace("-", " ")}` : target, subject, body });
    } catch (error) {
      console.error("code delivery failed", error);
      return fail({ sms_code: "errors.send_failed" }, 503);
    }
  }
  return { ok: true, value: { target, seconds: 60 } };
}

export async function register(ctx: AppContext, request: Request, data: Record<string, string>): Promise<Outcome<{ token: string; user: { id: number; uid: string } }>> {
  if (!(await hit(ctx.d1, `register:c:${clientKey(request)}`, Limits.registerPerClient))) {
    return fail({ form: "errors.too_many_requests" }, 429);
  }
  const parsed = parseForm(RegisterSchema, data);
  if (!parsed.ok) return fail(parsed.errors);
  const input = parsed.data;
  let email: string | null = null;
  let mobile: string | null = null;
  let areaId: number | null = null;
  if (input.type === "email") {
    email = input.account;
  } else {
    const code = await areaCode(ctx, input.area_id);
    if (!code) return fail({ area_id: "errors.required_area" });
    mobile = mobileKey(code, input.account);
    areaId = input.area_id;
  }
  const target = (email ?? mobile)!;
  let referrerId: number | null = null;
  if (input.invite_code) {
    const referrer = await ctx.d1
      .prepare("SELECT id FROM users WHERE invite_code = ?1 AND is_demo = 0")
      .bind(input.invite_code.toUpperCase())
      .first<{ id: number }>();
    if (!referrer) return fail({ invite_code: "errors.invite_invalid" });
    referrerId = referrer.id;
  }
  const existing = await ctx.d1
    .prepare("SELECT 1 AS x FROM users WHERE email = ?1 OR mobile = ?2")
    .bind(email, mobile)
    .first();
  if (existing) return fail({ account: "errors.account_exists" });
  if ((await verifyRegType(ctx)) === 2) {
    if (!input.captcha) return fail({ captcha: "errors.required_captcha" });
    if (!(await consumeCaptcha(ctx.d1, input.key, input.captcha))) return fail({ captcha: "errors.captcha_invalid" });
  } else {
    if (!input.sms_code) return fail({ sms_code: "errors.required_code" });
    if (!(await consumeCode(ctx.d1, target, "register", input.sms_code))) return fail({ sms_code: "errors.code_invalid" });
  }
  const passwordHash = await hashPassword(input.password, ctx.config.pepper, ctx.config.pbkdf2Iterations);
  const created = await insertUser(ctx, { email, mobile, areaId, passwordHash, referrerId });
  if (!created.ok) return fail({ account: "errors.account_exists" });
  const token = await createSession(ctx.d1, created.id, request.headers.get("user-agent") ?? "");
  return { ok: true, value: { token, user: { id: created.id, uid: created.uid } } };
}

interface LoginRow {
  id: number;
  passwordHash: string | null;
  isDemo: number;
  status: number;
}

export async function login(ctx: AppContext, request: Request, data: Record<string, string>): Promise<Outcome<{ token: string; userId: number }>> {
  const parsed = parseForm(LoginSchema, data);
  if (!parsed.ok) return fail(parsed.errors);
  const account = parsed.data.account.toLowerCase();
  const digits = account.replace(/[^\d]/g, "");
  const accountKey = `login:a:${account.includes("@") ? account : digits}`;
  const clientLimitKey = `login:c:${clientKey(request)}`;
  if ((await isLimited(ctx.d1, accountKey, Limits.loginPerAccount)) || (await isLimited(ctx.d1, clientLimitKey, Limits.loginPerClient))) {
    return fail({ form: "errors.too_many_attempts" }, 429);
  }
  const useMobile = parsed.data.login_type === "mobile" || (!account.includes("@") && /^\+?[\d\s-]{5,20}$/.test(account));
  const row = useMobile
    ? await ctx.d1
        .prepare(
          "SELECT id, password_hash AS passwordHash, is_demo AS isDemo, status FROM users WHERE mobile = ?1 OR replace(mobile, '-', '') = ?2 LIMIT 1",
        )
        .bind(account.replace(/^\+/, ""), digits)
        .first<LoginRow>()
    : await ctx.d1
        .prepare("SELECT id, password_hash AS passwordHash, is_demo AS isDemo, status FROM users WHERE email = ?1")
        .bind(account)
        .first<LoginRow>();
  const valid = await verifyPassword(parsed.data.password, row?.passwordHash, ctx.config.pepper, ctx.config.pbkdf2Iterations);
  if (!row || !valid || row.status !== 1) {
    await Promise.all([hit(ctx.d1, accountKey, Limits.loginPerAccount), hit(ctx.d1, clientLimitKey, Limits.loginPerClient)]);
    return fail({ form: "errors.login_failed" }, 400);
  }
  await clear(ctx.d1, accountKey);
  if (row.passwordHash && needsRehash(row.passwordHash, ctx.config.pbkdf2Iterations)) {
    const rehashed = await hashPassword(parsed.data.password, ctx.config.pepper, ctx.config.pbkdf2Iterations);
    await ctx.d1.prepare("UPDATE users SET password_hash = ?1 WHERE id = ?2").bind(rehashed, row.id).run();
  }
  const token = await createSession(ctx.d1, row.id, request.headers.get("user-agent") ?? "");
  return { ok: true, value: { token, userId: row.id } };
}

const DemoIdSchema = v.pipe(v.string(), v.uuid());

/**
 * Demo (mock) account: resumes the demo user of this browser's demo id, or creates one with
 * simulated starting balances granted through the ledger (one grant per user, idempotent).
 */
export async function demoLogin(ctx: AppContext, request: Request, demoId: string | null | undefined): Promise<Outcome<{ token: string; demoId: string; userId: number }>> {
  const id = demoId && v.is(DemoIdSchema, demoId) ? demoId.toLowerCase() : null;
  let userId: number | null = null;
  let resolvedId = id;
  if (id) {
    const row = await ctx.d1.prepare("SELECT id FROM users WHERE demo_id = ?1 AND is_demo = 1").bind(id).first<{ id: number }>();
    userId = row?.id ?? null;
  }
  if (!userId) {
    if (!(await hit(ctx.d1, `demo:c:${clientKey(request)}`, Limits.demoPerClient))) return fail({ form: "errors.too_many_requests" }, 429);
    resolvedId = crypto.randomUUID();
    const created = await insertUser(ctx, { isDemo: true, demoId: resolvedId });
    if (!created.ok) return fail({ form: "errors.try_again" }, 409);
    userId = created.id;
    await grantDemoBalances(ctx, userId);
  }
  const token = await createSession(ctx.d1, userId, request.headers.get("user-agent") ?? "");
  return { ok: true, value: { token, demoId: resolvedId!, userId } };
}

/** Forgot password (spec: reset by e-mail): same answer whether or not the account exists. */
export async function sendResetCode(ctx: AppContext, request: Request, data: Record<string, string>): Promise<Outcome<{ seconds: number }>> {
  const parsed = parseForm(v.object({ account: ForgotSchema.pipe[0].entries.account }), data);
  if (!parsed.ok) return fail(parsed.errors);
  const user = await ctx.d1
    .prepare("SELECT id FROM users WHERE email = ?1 AND is_demo = 0")
    .bind(parsed.data.account)
    .first<{ id: number }>();
  const delivered = await deliverCode(ctx, request, parsed.data.account, "email", "reset", Boolean(user));
  if (!delivered.ok) return delivered;
  return { ok: true, value: { seconds: 60 } };
}

export async function resetPassword(ctx: AppContext, data: Record<string, string>): Promise<Outcome<null>> {
  const parsed = parseForm(ForgotSchema, data);
  if (!parsed.ok) return fail(parsed.errors);
  const user = await ctx.d1
    .prepare("SELECT id FROM users WHERE email = ?1 AND is_demo = 0")
    .bind(parsed.data.account)
    .first<{ id: number }>();
  const codeOk = await consumeCode(ctx.d1, parsed.data.account, "reset", parsed.data.auth_code);
  if (!user || !codeOk) return fail({ auth_code: "errors.code_invalid" });
  await setPassword(ctx, user.id, parsed.data.password);
  return { ok: true, value: null };
}

async function setPassword(ctx: AppContext, userId: number, password: string) {
  const passwordHash = await hashPassword(password, ctx.config.pepper, ctx.config.pbkdf2Iterations);
  await ctx.d1.prepare("UPDATE users SET password_hash = ?1 WHERE id = ?2").bind(passwordHash, userId).run();
  await revokeAllSessions(ctx.d1, userId);
}

/** Where a signed-in user's codes go: their e-mail, else their mobile. */
function contactOf(user: SessionUser): { target: string; channel: "email" | "sms" } | null {
  if (user.email) return { target: user.email, channel: "email" };
  if (user.mobile) return { target: user.mobile, channel: "sms" };
  return null;
}

export async function sendAmendCode(ctx: AppContext, request: Request, user: SessionUser): Promise<Outcome<{ seconds: number }>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const contact = contactOf(user);
  if (!contact) return fail({ form: "errors.only_real_account" }, 403);
  const delivered = await deliverCode(ctx, request, contact.target, contact.channel, "amend", true);
  if (!delivered.ok) return delivered;
  return { ok: true, value: { seconds: 60 } };
}

/** /mine/password: both fields filled and equal, code checked; other sessions end, this one is renewed. */
export async function amendPassword(ctx: AppContext, request: Request, user: SessionUser, data: Record<string, string>): Promise<Outcome<{ token: string }>> {
  if (user.isDemo) return fail({ form: "errors.only_real_account" }, 403);
  const parsed = parseForm(AmendSchema, data);
  if (!parsed.ok) return fail(parsed.errors);
  const contact = contactOf(user);
  if (!contact || !(await consumeCode(ctx.d1, contact.target, "amend", parsed.data.auth_code))) {
    return fail({ auth_code: "errors.code_invalid" });
  }
  await setPassword(ctx, user.id, parsed.data.password);
  const token = await createSession(ctx.d1, user.id, request.headers.get("user-agent") ?? "");
  return { ok: true, value: { token } };
}
