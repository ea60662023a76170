/**
 * E-mail notices of a user's withdrawal (issue 24): requested, paid (with the payout's transaction
 * id and its explorer page) and rejected (with the operator's reason), in the user's language,
 * through the outbox or the mail provider (`emailUser`: in the background, after the batch has
 * committed, a failure logged). A user without an e-mail address gets none.
 */
import type { ServiceContext } from "~/context.server";
import { toDecimalString, type Micros } from "~/domain/money";
import { explorerUrl } from "~/domain/withdraw";
import { emailUser } from "~/services/notify.server";

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

/** Sends the notice of `event` on withdrawal `id` (call it once the change has committed). */
export function noticeWithdrawal(ctx: ServiceContext, id: number, event: WithdrawalEvent) {
  emailUser(
    ctx,
    "withdrawal",
    () =>
      ctx.d1
        .prepare(
          `SELECT w.amount, w.currency_code AS currency, w.real_number AS received, w.notes, w.tx_id AS txId, w.tx_network AS txNetwork,
                  u.email, u.lang
             FROM withdrawals w JOIN users u ON u.id = w.user_id WHERE w.id = ?1`,
        )
        .bind(id)
        .first<NoticeRow>(),
    (t, w) => {
      const values = {
        id,
        amount: toDecimalString(w.amount, 2),
        received: w.received,
        currency: w.currency,
        reason: w.notes,
        tx: w.txId ?? "",
      };
      const link = event === "paid" && w.txId && w.txNetwork ? explorerUrl(w.txNetwork, w.txId) : null;
      const body = t(`mail.withdraw_${event}_body`, values);
      return { subject: t(`mail.withdraw_${event}_subject`, values), body: link ? `${body}\n\n${link}` : body };
    },
  );
}
