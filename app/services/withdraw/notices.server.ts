/**
 * E-mail notices of a user's withdrawal (issue 24): requested, paid (with the payout's transaction
 * id and its explorer page) and rejected (with the operator's reason), in the user's language,
 * through the outbox or the mail provider. A notice never stands in the way of the money: it is
 * sent after the batch has committed, in the background, and a failure is logged. A user without an
 * e-mail address gets none.
 */
import type { ServiceContext } from "~/context.server";
import { toDecimalString, type Micros } from "~/domain/money";
import { explorerUrl } from "~/domain/withdraw";
import { DEFAULT_LANGUAGE, isLanguage } from "~/i18n/config";
import { fixedT } from "~/i18n/i18n.server";
import { notifier } from "~/services/notify.server";

export type WithdrawalEvent = "requested" | "paid" | "rejected";

interface NoticeRow {
  amount: Micros;
  currency: string;
  received: string;
  notes: string;
  txId: string | null;
  txNetwork: string | null;
  email: string | null;
  lang: string;
}

/** The notice's subject and text, in the user's language (the paid one ends with the explorer page, when the network has one). */
export async function withdrawalNotice(id: number, event: WithdrawalEvent, row: NoticeRow) {
  const t = await fixedT(isLanguage(row.lang) ? row.lang : DEFAULT_LANGUAGE);
  const link = event === "paid" && row.txId && row.txNetwork ? explorerUrl(row.txNetwork, row.txId) : null;
  const values = {
    id,
    amount: toDecimalString(row.amount, 2),
    received: row.received,
    currency: row.currency,
    reason: row.notes,
    tx: row.txId ?? "",
  };
  const body = t(`mail.withdraw_${event}_body`, values);
  return { subject: t(`mail.withdraw_${event}_subject`, values), body: link ? `${body}\n\n${link}` : body };
}

async function send(ctx: ServiceContext, id: number, event: WithdrawalEvent) {
  const row = await ctx.d1
    .prepare(
      `SELECT w.amount, w.currency_code AS currency, w.real_number AS received, w.notes, w.tx_id AS txId, w.tx_network AS txNetwork,
              u.email, u.lang
         FROM withdrawals w JOIN users u ON u.id = w.user_id WHERE w.id = ?1`,
    )
    .bind(id)
    .first<NoticeRow>();
  if (!row?.email) return;
  const { subject, body } = await withdrawalNotice(id, event, row);
  await notifier(ctx.config, ctx.d1).send({ channel: "email", to: row.email, subject, body });
}

/** Sends the notice of `event` on withdrawal `id` in the background (call it once the change has committed). */
export function noticeWithdrawal(ctx: ServiceContext, id: number, event: WithdrawalEvent) {
  ctx.waitUntil(send(ctx, id, event).catch((error) => console.error("withdrawal notice failed", error)));
}
