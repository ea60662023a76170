/** How the auth use cases send their one-time codes (spec §2, §5): limits, delivery, refusals. */
import type { AppContext, ServiceContext } from "~/context.server";
import { issueCode, withdrawCode, CODE_RESEND_SECONDS, CODE_TTL_MS, type CodePurpose } from "~/services/codes.server";
import { notifier } from "~/services/notify.server";
import { fail, type Outcome } from "~/services/outcome";

export type Channel = "email" | "sms";

export async function deliver(ctx: ServiceContext, channel: Channel, to: string, subject: string, body: string): Promise<boolean> {
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
export async function sendCodeTo(
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
