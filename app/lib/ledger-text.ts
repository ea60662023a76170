/**
 * The account log's words in the reader's language (spec §3 Account log: Type and Memo
 * translated): a ledger kind's label, and a memo — stored as an i18n key, or "key|arg|arg" for
 * the memos that name accounts (a transfer's from and to). Used by the pages, the CSV
 * statement and the JSON API alike.
 */
import { WALLET_ACCOUNTS } from "~/domain/wallet";
import { translateMessage, type TLike } from "~/lib/messages";

const KINDS = new Set<string>(WALLET_ACCOUNTS.map((a) => a.kind));
const KEY = /^[a-z_]+\.[a-z0-9_]+$/;

export function ledgerKindText(t: TLike, kind: string): string {
  return t(`ledger_kind.${kind}`);
}

export function memoText(t: TLike, memo: string): string {
  if (!memo) return "";
  const [key = "", ...args] = memo.split("|");
  if (key === "transfer.memo" && args.length === 2 && args.every((a) => KINDS.has(a))) {
    return t("transfer.memo", { from: t(`accounts.${args[0]}`), to: t(`accounts.${args[1]}`) });
  }
  return KEY.test(key) ? translateMessage(t, memo) : memo;
}
