/**
 * Accounts and sign-in use cases (spec §2 login/registration, §4 session, §5, §6), shared by the
 * form actions and the JSON API. Inputs arrive parsed by the forms' schemas (app/forms/auth.ts);
 * errors are i18n keys ("errors.*") keyed by form field.
 *
 * Every account identifier is used in its canonical form (app/domain/identity.ts): sign-in,
 * registration, codes and every limit key see one spelling per account.
 */
import { and, desc, eq, or, sql } from "drizzle-orm";
import type { AppContext, ServiceContext } from "~/context.server";
import { areas, baseSettings, users } from "~/db/schema";
import { canonicalInternational, canonicalMobile, identifierWords, parseAccount } from "~/domain/identity";
import type { AmendInput, ApiAmendInput, ForgotInput, LoginInput, RegisterInput, SendCodeInput } from "~/forms/auth";
import { MAIN_COMPANY_ID } from "~/lib/constants";
import {
  consumeCaptcha,
  consumeCode,
  issueCode,
  withdrawCode,
  CODE_RESEND_SECONDS,
  CODE_TTL_MS,
  type CodePurpose,
} from "~/services/codes.server";
import { grantDemoBalances } from "~/services/demo.server";
import { ACCOUNT_KINDS } from "~/services/ledger.server";
import { notifier } from "~/services/notify.server";
import { hashPassword, needsRehash, verifyPassword } from "~/services/password.server";
import { passwordProblem } from "~/services/password-policy.server";
import { Backoffs, Limits, clear, hit, release, reserve, reserveWithBackoff } from "~/services/rate-limit.server";
import { createSession, revokeAllSessions, revokeSession, type SessionUser } from "~/services/session.server";
import type { Failure, FieldErrors, Outcome } from "~/services/outcome";

const fail = (errors: FieldErrors, status = 400, captchaRequired?: boolean): Failure => ({
  ok: false,
  errors,
  status,
  ...(captchaRequired ? { captchaRequired } : {}),
});

/** Sign-in attempts per account that need no captcha in a window (then every attempt needs one). */
export const LOGIN_FREE_ATTEMPTS = Limits.loginPerAccount.max;

export async function verifyRegType(ctx: ServiceContext): Promise<number> {
  const [row] = await ctx.db
    .select({ v: baseSettings.verifyRegType })
    .from(baseSettings)
    .where(eq(baseSettings.companyId, MAIN_COMPANY_ID));
  return row?.v ?? 1;
}

async function areaById(ctx: ServiceContext, areaId: number): Promise<{ id: number; code: string } | null> {
  const [row] = await ctx.db.select({ id: areas.id, code: areas.globalCode }).from(areas).where(eq(areas.id, areaId));
  return row ?? null;
}

/** The area whose calling code starts a canonical number (longest code first, so 1242 wins over 1). */
async function areaForNumber(ctx: ServiceContext, e164: string): Promise<number | null> {
  const [row] = await ctx.db
    .select({ id: areas.id })
    .from(areas)
    .where(sql`${e164} LIKE '+' || ${areas.globalCode} || '%'`)
    .orderBy(desc(sql`length(${areas.globalCode})`), areas.id)
    .limit(1);
  return row?.id ?? null;
}

/** A mobile number from an area and a national number, or the spec's "852-91234567" form: canonical, with its area. */
async function resolveMobile(
  ctx: ServiceContext,
  input: { account?: string; area_id?: number; mobile?: string },
): Promise<{ ok: true; value: string; areaId: number | null } | { ok: false; errors: FieldErrors }> {
  if (input.account && input.area_id) {
    const area = await areaById(ctx, input.area_id);
    if (!area) return { ok: false, errors: { area_id: "errors.required_area" } };
    const value = canonicalMobile(area.code, input.account);
    return value ? { ok: true, value, areaId: area.id } : { ok: false, errors: { account: "errors.invalid_mobile" } };
  }
  const value = input.mobile ? canonicalInternational(input.mobile) : null;
  if (!value) return { ok: false, errors: { account: "errors.invalid_mobile" } };
  return { ok: true, value, areaId: await areaForNumber(ctx, value) };
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
 * Inserts a user and opens the three sub-accounts in one batch (raw statements: the accounts
 * find their user by uid inside the same batch, which drizzle's insert builder cannot say). Retries a few times on the
 * (rare) collision of a random uid or invite code; a duplicate e-mail/mobile is reported.
 */
async function insertUser(
  ctx: ServiceContext,
  fields: {
    email?: string | null;
    mobile?: string | null;
    areaId?: number | null;
    passwordHash?: string | null;
    referrerId?: number | null;
    isDemo?: boolean;
    demoId?: string | null;
    wallet?: string | null;
  },
): Promise<{ ok: true; id: number; uid: string } | { ok: false; duplicate: true }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const uid = randomUid();
    const statements = [
      ctx.d1
        .prepare(
          `INSERT INTO users (uid, company_id, email, mobile, area_id, password_hash, invite_code, referrer_id, is_demo, demo_id, role, lang)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 'user', ?11)`,
        )
        .bind(
          uid,
          MAIN_COMPANY_ID,
          fields.email ?? null,
          fields.mobile ?? null,
          fields.areaId ?? null,
          fields.passwordHash ?? null,
          randomInviteCode(),
          fields.referrerId ?? null,
          fields.isDemo ? 1 : 0,
          fields.demoId ?? null,
          ctx.lang,
        ),
      ...ACCOUNT_KINDS.map((k) =>
        ctx.d1
          .prepare("INSERT INTO accounts (user_id, kind, account_type_id) VALUES ((SELECT id FROM users WHERE uid = ?1), ?2, ?3)")
          .bind(uid, k.kind, k.accountTypeId),
      ),
      // A wallet user's address is linked in the same batch: a wallet already linked aborts it all.
      ...(fields.wallet
        ? [
            ctx.d1
              .prepare("INSERT INTO user_wallets (address, user_id) VALUES (?1, (SELECT id FROM users WHERE uid = ?2))")
              .bind(fields.wallet, uid),
          ]
        : []),
    ];
    try {
      await ctx.d1.batch(statements);
    } catch (error) {
      const message = String((error as Error).message);
      if (
        message.includes("users.email") ||
        message.includes("users.mobile") ||
        message.includes("users.demo_id") ||
        message.includes("user_wallets.address")
      )
        return { ok: false, duplicate: true };
      if (message.includes("users.uid") || message.includes("users.invite_code")) continue;
      throw error;
    }
    const row = await ctx.d1.prepare("SELECT id FROM users WHERE uid = ?1").bind(uid).first<{ id: number }>();
    return { ok: true, id: row!.id, uid };
  }
  throw new Error("could not allocate a user id");
}

/**
 * A user whose only credential is a wallet (web3 login): made the way registration makes users
 * (uid, invite code, the three sub-accounts), without e-mail or password, with the lowercased
 * address linked in the same batch. `duplicate` when the address is already linked.
 */
export function createWalletUser(ctx: ServiceContext, address: string) {
  return insertUser(ctx, { wallet: address });
}

async function accountExists(ctx: ServiceContext, target: { email?: string | null; mobile?: string | null }) {
  const conditions = [
    target.email ? eq(users.email, target.email) : undefined,
    target.mobile ? eq(users.mobile, target.mobile) : undefined,
  ].filter(Boolean);
  if (conditions.length === 0) return false;
  const [row] = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(or(...conditions))
    .limit(1);
  return Boolean(row);
}

/** A real (non-demo) user by canonical e-mail. */
async function realUserByEmail(ctx: ServiceContext, email: string) {
  const [row] = await ctx.db
    .select({ id: users.id, email: users.email, mobile: users.mobile })
    .from(users)
    .where(and(eq(users.email, email), eq(users.isDemo, 0)));
  return row ?? null;
}

type Channel = "email" | "sms";

async function deliver(ctx: ServiceContext, channel: Channel, to: string, subject: string, body: string): Promise<boolean> {
  try {
    await notifier(ctx.config, ctx.d1).send({ channel, to, subject, body });
    return true;
  } catch (error) {
    console.error("code delivery failed", error);
    return false;
  }
}

/**
 * Reserves a code for a target and sends it. `store: false` sends `instead` (a notice) in place
 * of the code while applying the same limits: the answer is the same either way. The requester's
 * slot is the client's (`requester` overrides it: the operator of a step-up).
 */
async function sendCodeTo(
  ctx: AppContext,
  target: string,
  channel: Channel,
  purpose: CodePurpose,
  instead?: { subject: string; body: string } | "nothing",
  requester?: string,
): Promise<Outcome<{ seconds: number }>> {
  const issued = await issueCode(ctx.d1, requester ?? ctx.client.key, target, purpose, { store: instead === undefined });
  if (!issued.ok) {
    return issued.reason === "wait"
      ? fail({ sms_code: `errors.code_wait|${issued.seconds}` }, 429)
      : fail({ sms_code: "errors.too_many_requests" }, 429);
  }
  if (instead === "nothing") return { ok: true, value: { seconds: CODE_RESEND_SECONDS } };
  const message = instead ?? {
    subject: ctx.t(`mail.${purpose}_subject`),
    body: ctx.t("mail.code_body", { code: issued.code, minutes: CODE_TTL_MS / 60_000 }),
  };
  if (!(await deliver(ctx, channel, target, message.subject, message.body))) {
    await withdrawCode(ctx.d1, target, purpose);
    return fail({ sms_code: "errors.send_failed" }, 503);
  }
  return { ok: true, value: { seconds: CODE_RESEND_SECONDS } };
}

/**
 * Registration code by e-mail or SMS. When the address already has an account, its owner gets a
 * message saying so instead of a code, and the answer is the same: registration does not reveal
 * which addresses have accounts.
 */
export async function sendRegisterCode(ctx: AppContext, input: SendCodeInput): Promise<Outcome<{ seconds: number }>> {
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
): Promise<Outcome<{ token: string; user: { id: number; uid: string } }>> {
  if (!(await hit(ctx.d1, `register:c:${ctx.client.key}`, Limits.registerPerClient)))
    return fail({ form: "errors.too_many_requests" }, 429);
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
export async function login(ctx: AppContext, input: LoginInput): Promise<Outcome<{ token: string; userId: number }>> {
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

/** Forgot password (spec: reset by e-mail): same answer, same limits whether or not the account exists. */
export async function sendResetCode(ctx: AppContext, input: { account: string }): Promise<Outcome<{ seconds: number }>> {
  const user = await realUserByEmail(ctx, input.account);
  return sendCodeTo(ctx, input.account, "email", "reset", user ? undefined : "nothing");
}

export async function resetPassword(ctx: AppContext, input: ForgotInput): Promise<Outcome<null>> {
  const user = await realUserByEmail(ctx, input.account);
  const weak = passwordProblem(input.password, identifierWords(user ?? { email: input.account }));
  if (weak) return fail({ password: weak });
  const codeOk = await consumeCode(ctx.d1, input.account, "reset", input.auth_code);
  if (!user || !codeOk) return fail({ auth_code: "errors.code_invalid" });
  await setPassword(ctx, user.id, input.password);
  return { ok: true, value: null };
}

/** A new password ends every session of the user (the caller may open a new one for this device). */
async function setPassword(ctx: ServiceContext, userId: number, password: string) {
  const passwordHash = await hashPassword(password, ctx.config.pepper, ctx.config.pbkdf2Iterations);
  await ctx.db.update(users).set({ passwordHash }).where(eq(users.id, userId));
  await revokeAllSessions(ctx.d1, userId);
}

/** Where a signed-in user's codes go: their e-mail, else their mobile. */
function contactOf(user: SessionUser): { target: string; channel: Channel } | null {
  if (user.email) return { target: user.email, channel: "email" };
  if (user.mobile) return { target: user.mobile, channel: "sms" };
  return null;
}

export async function sendAmendCode(ctx: AppContext, user: SessionUser): Promise<Outcome<{ seconds: number }>> {
  const contact = user.isDemo ? null : contactOf(user);
  if (!contact) return fail({ form: "errors.only_real_account" }, 403);
  return sendCodeTo(ctx, contact.target, contact.channel, "amend");
}

/** An operator's fresh code before approving payouts (app/services/operator.server.ts): sent to their e-mail. */
export async function sendStepUpCode(ctx: AppContext, user: SessionUser): Promise<Outcome<{ seconds: number }>> {
  const contact = contactOf(user);
  if (!contact) return fail({ form: "errors.not_found" }, 404);
  // the operator's own requests are counted per operator, not per network they share with users
  return sendCodeTo(ctx, contact.target, contact.channel, "stepup", undefined, `op:${user.id}`);
}

/** Uses the operator's step-up code (single use, 5 tries, 10 minutes). */
export async function consumeStepUpCode(ctx: AppContext, user: SessionUser, code: string): Promise<boolean> {
  const contact = contactOf(user);
  return contact ? consumeCode(ctx.d1, contact.target, "stepup", code) : false;
}

/**
 * A signed-in user's password change: both new fields filled and equal, the code sent to their
 * mailbox checked; every session ends, this device gets a new one. The web form (/mine/password)
 * always asks for the current password (AmendSchema); the spec's API call sends only the code,
 * which proves the mailbox (ApiAmendSchema), and a current password it does send is checked.
 * A wrong current password changes nothing (the code stays usable); its checks are limited per
 * user (a stolen session cannot guess it freely).
 */
export async function amendPassword(
  ctx: AppContext,
  user: SessionUser,
  input: AmendInput | ApiAmendInput,
): Promise<Outcome<{ token: string }>> {
  const contact = user.isDemo ? null : contactOf(user);
  if (!contact) return fail({ form: "errors.only_real_account" }, 403);
  const weak = passwordProblem(input.password, identifierWords(user));
  if (weak) return fail({ password: weak });
  if (input.old_password !== undefined) {
    if (!(await hit(ctx.d1, `amend:pw:${user.id}`, Limits.oldPasswordPerUser)))
      return fail({ old_password: "errors.too_many_attempts" }, 429);
    const [row] = await ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id));
    if (!(await verifyPassword(input.old_password, row?.passwordHash, ctx.config.pepper, ctx.config.pbkdf2Iterations)))
      return fail({ old_password: "auth.old_password_wrong" });
  }
  if (!(await consumeCode(ctx.d1, contact.target, "amend", input.auth_code))) return fail({ auth_code: "errors.code_invalid" });
  await setPassword(ctx, user.id, input.password);
  const token = await createSession(ctx.d1, user.id, ctx.client.userAgent);
  return { ok: true, value: { token } };
}

/** Ends the session of this token (web logout and the API's POST /api/user/logout). */
export async function logout(ctx: ServiceContext, token: string | null) {
  if (token) await revokeSession(ctx.d1, token);
}
