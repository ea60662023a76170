/**
 * The account statement as CSV (/mine/history.csv?accountTypeId=1|2|3): the entries of the
 * account's log (time ISO, type, memo, amount with 2 decimals), the header row in the reader's
 * language, downloaded as an attachment and never cached. Text cells that a spreadsheet would
 * run as formulas are neutralised; amounts stay numbers.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { exactDecimals, toDecimalString } from "~/domain/money";
import { accountTypeOf, toCsv, walletAccount, type CsvNumber } from "~/domain/wallet";
import { ledgerKindText, memoText } from "~/lib/ledger-text";
import { accountStatement } from "~/services/wallet.server";
import { requireUser } from "~/services/web.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const raw = new URL(request.url).searchParams.get("accountTypeId");
  const id = accountTypeOf(raw);
  if (id === null || raw !== String(id)) throw new Response("Not found", { status: 404, headers: { "cache-control": "no-store" } });
  const entries = await accountStatement(context, user.id, id);
  const t = context.t;
  const rows: (string | CsvNumber)[][] = [
    [t("history.time"), t("history.type"), t("history.memo"), t("history.value")],
    ...entries.map((e) => [
      new Date(e.createdAt).toISOString(),
      ledgerKindText(t, e.kind),
      memoText(t, e.memo),
      { number: toDecimalString(e.amount, exactDecimals(e.amount)) },
    ]),
  ];
  const day = new Date().toISOString().slice(0, 10);
  const filename = `statement-${walletAccount(id).kind}-${day}.csv`;
  // A byte order mark, so spreadsheet programs read the translated header as UTF-8.
  return new Response(`\uFEFF${toCsv(rows)}`, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    },
  });
}
