/** Password reset, change and the operator's step-up code (spec §5, §6): every new password ends the user's sessions. */
import { eq } from "drizzle-orm";
import type { AppContext, ServiceContext } from "~/context.server";
import { users } from "~/db/schema";
import { identifierWords } from "~/domain/identity";
import type { AmendInput, ApiAmendInput, ForgotInput } from "~/forms/auth";
import { consumeCode } from "~/services/codes.server";
import { hashPassword, verifyPassword } from "~/services/password.server";
import { passwordProblem } from "~/services/password-policy.server";
import { Limits, hit } from "~/services/rate-limit.server";
import { createSession, revokeAllSessions, type SessionUser } from "~/services/session.server";
import { fail, type Outcome } from "~/services/outcome";
import { realUserByEmail } from "./accounts.server";
import { sendCodeTo, type Channel } from "./codes.server";
import { upstreamResetPassword, upstreamSendResetCode } from "~/services/upstream/accounts.server";

/** Forgot password (spec: reset by e-mail): same answer, same limits whether or not the account exists. */
export async function sendResetCode(ctx: AppContext, input: { account: string }): Promise<Outcome<{ seconds: number }>> {
  if (ctx.config.platform.kind === "upstream") return upstreamSendResetCode(ctx, input);
  const user = await realUserByEmail(ctx, input.account);
  return sendCodeTo(ctx, input.account, "email", "reset", user ? undefined : "nothing");
}

export async function resetPassword(ctx: AppContext, input: ForgotInput): Promise<Outcome<null>> {
  if (ctx.config.platform.kind === "upstream") return upstreamResetPassword(ctx, input);
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
