/**
 * Upstream mode's registration and forgotten password (issue 23, ADR 024): the backend's §7
 * calls behind the platform's own service functions (sign-in.server, passwords.server), with the
 * same `Outcome` values, so the register and forgot pages do not change. The backend sends the
 * codes and checks them; a registration signs the user in as a login does (`openUpstreamSession`).
 * A command whose answer never came is never sent again by itself: the page says the outcome is
 * unknown (errors.outcome_unknown) and where to check.
 */
import * as v from "valibot";
import type { AppContext, ServiceContext } from "~/context.server";
import type { ForgotInput, RegisterInput, SendCodeInput } from "~/forms/auth";
import type { Outcome } from "~/services/outcome";
import { cachedRead, FRESH_MS, targetOf } from "./cache.server";
import { callUpstream, type UpstreamAnswer, type UpstreamCall } from "./client.server";
import { openUpstreamSession, refusedBy } from "./sessions.server";
import { commandFailed, Int } from "./wire";

/** The code countdown of spec §9 when the backend does not say. */
const CODE_SECONDS = 60;

const Areas = v.array(
  v.pipe(
    v.object({
      id: v.optional(Int),
      area_id: v.optional(Int),
      code: v.optional(v.string()),
      area_code: v.optional(v.string()),
      name: v.pipe(v.string(), v.maxLength(100)),
      global_code: v.pipe(v.union([v.string(), v.number()]), v.transform(String), v.maxLength(8)),
    }),
    v.check((a) => (a.id ?? a.area_id) !== undefined, "an area needs its id"),
    v.transform((a) => {
      const id = (a.id ?? a.area_id)!;
      const code = a.code ?? a.area_code ?? "";
      return { id, area_id: id, code, area_code: code, name: a.name, global_code: a.global_code };
    }),
  ),
);

/** The backend's areas (spec §7 area_list) in the platform's shape; none when it never answered. */
export async function upstreamAreaList(ctx: ServiceContext) {
  const list = await cachedRead(ctx, { path: "/api/default/area_list", schema: Areas, freshMs: FRESH_MS.settings });
  return list?.data ?? [];
}

/** One command to the backend, not signed in, with the browser's address. */
function command(ctx: AppContext, call: Omit<UpstreamCall, "lang" | "clientIp" | "method">): Promise<UpstreamAnswer<unknown>> {
  return callUpstream(targetOf(ctx), { ...call, method: "POST", lang: ctx.lang, clientIp: ctx.client.ip });
}

/** A command's failure: the backend's own refusal, or an outcome nobody can know yet (never resent). */

const Seconds = v.object({ seconds: v.optional(Int, CODE_SECONDS) });
function secondsOf(data: unknown): number {
  const parsed = v.safeParse(Seconds, data ?? {});
  return parsed.success ? Math.min(Math.max(parsed.output.seconds, 1), 600) : CODE_SECONDS;
}

/** Sends a registration code by e-mail or SMS (spec §7 send_email / send_sms, type 1). */
export async function upstreamSendRegisterCode(ctx: AppContext, input: SendCodeInput): Promise<Outcome<{ seconds: number }>> {
  const answer =
    input.type === "email"
      ? await command(ctx, { path: "/api/notify/send_email", params: { to: input.account, type: 1 } })
      : await command(ctx, { path: "/api/notify/send_sms", params: { to: input.account, area_id: input.area_id, type: 1 } });
  return answer.ok ? { ok: true, value: { seconds: secondsOf(answer.data) } } : refusedBy(answer);
}

/** Registers with the backend (spec §7 register), which signs the user in: our session follows. */
export async function upstreamRegister(ctx: AppContext, input: RegisterInput): Promise<Outcome<{ token: string; userId: number }>> {
  const answer = await command(ctx, {
    path: "/api/user/register",
    params: {
      type: input.type,
      account: input.account,
      area_id: "area_id" in input ? input.area_id : undefined,
      mobile: "mobile" in input ? input.mobile : undefined,
      password: input.password,
      re_password: input.re_password,
      sms_code: input.sms_code,
      invite_code: input.invite_code || undefined,
      captcha: input.captcha,
      key: input.key,
    },
  });
  if (!answer.ok) return commandFailed(answer, ["account", "sms_code", "password", "re_password", "invite_code", "area_id"]);
  return openUpstreamSession(ctx, answer.data);
}

/** Sends a password-reset code (spec §7 send_email, type 2, not signed in). */
export async function upstreamSendResetCode(ctx: AppContext, input: { account: string }): Promise<Outcome<{ seconds: number }>> {
  const answer = await command(ctx, { path: "/api/notify/send_email", params: { to: input.account, type: 2 } });
  return answer.ok ? { ok: true, value: { seconds: secondsOf(answer.data) } } : refusedBy(answer);
}

/** Sets a new password with the code (spec §7 forget_password); the backend ends the user's sessions there. */
export async function upstreamResetPassword(ctx: AppContext, input: ForgotInput): Promise<Outcome<null>> {
  const answer = await command(ctx, {
    path: "/api/user/forget_password",
    params: {
      type: "email",
      account: input.account,
      new_password: input.password,
      secondary_password: input.re_password,
      auth_code: input.auth_code,
    },
  });
  return answer.ok ? { ok: true, value: null } : commandFailed(answer, ["account", "auth_code", "password", "re_password"]);
}
