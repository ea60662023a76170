/**
 * The operator's withdrawal queue (issue 10 §6): pending requests (oldest first) with the user,
 * amount, fee, amount received, currency and payee; the latest decided ones with who decided and
 * when. Approve needs a fresh step-up (re-checked inside the payout's batch); reject needs a
 * reason and unlocks the amount. Plain POSTs answered with a redirect and a flash: works without
 * JavaScript. Everyone but an operator gets 404.
 */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { DecidedCard, DecisionHistory } from "~/components/decision-history";
import { ReviewForm, ReviewItem, ReviewQueue } from "~/components/review-queue";
import { RouteErrorBoundary } from "~/components/route-error";
import { OrderTime } from "~/components/orders";
import { PayoutTx, StatusBadge, usd } from "~/components/withdraw";
import { DrawType } from "~/domain/withdraw";
import { Intent } from "~/forms/intents";
import { WithdrawalDecisionSchema } from "~/forms/operator";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import { requireOperator, requireStepUp } from "~/services/operator.server";
import { approveWithdrawal, rejectWithdrawal, withdrawalQueue, type QueueItem } from "~/services/withdraw/operator.server";
import { redirectWithFlash } from "~/services/web.server";
import walletStylesHref from "~/styles/withdraw.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "identity", "orders", "settings", "trade", "wallet", "withdraw"] };

export const meta = titled("admin.withdrawals", { console: true });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: walletStylesHref }];

const PATH = "/admin/withdrawals";

export async function loader({ context }: LoaderFunctionArgs) {
  const operator = await requireOperator(context);
  return withdrawalQueue(context, operator);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(context);
  const parsed = parseFields(WithdrawalDecisionSchema, await readForm(request));
  if (!parsed.ok) throw new Response("Unknown action", { status: 400 });
  const { intent, id, reason, tx } = parsed.value;
  switch (intent) {
    case Intent.Approve: {
      // without a fresh step-up the operator confirms one first (then comes back here)
      const { sessionId } = await requireStepUp(context, request);
      const result = await approveWithdrawal(context, operator, sessionId, id, tx);
      return redirectWithFlash(
        context,
        PATH,
        result.ok ? { kind: "success", message: "admin.approved" } : { kind: "error", message: result.error },
      );
    }
    case Intent.Reject: {
      const result = await rejectWithdrawal(context, operator, id, reason);
      return redirectWithFlash(
        context,
        PATH,
        result.ok ? { kind: "success", message: "admin.rejected" } : { kind: "error", message: result.error },
      );
    }
  }
}

export default function AdminWithdrawals() {
  const { t } = useTranslation();
  const { pending, decided } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <>
      <ReviewQueue id="queue-pending" title={t("admin.pending")} count={pending.length} listClassName="withdraw-queue">
        {pending.map((w) => (
          <ReviewItem key={w.id} id={`withdrawal-${w.id}`} heading={<Title w={w} locale={locale} />} data={{ "data-withdrawal": w.id }}>
            <Facts w={w} locale={locale} />
            <ReviewForm id={w.id} fields={<TxField w={w} />} />
          </ReviewItem>
        ))}
      </ReviewQueue>
      <DecisionHistory id="queue-decided" count={decided.length} empty={t("common.no_data")} cards listClassName="withdraw-queue">
        {decided.map((w) => (
          <DecidedCard key={w.id} decidedBy={w.reviewer} decidedAt={w.reviewedAt} locale={locale} data={{ "data-withdrawal": w.id }}>
            <div className="record-head">
              <Title w={w} locale={locale} />
              <StatusBadge status={w.status} />
            </div>
            <Facts w={w} locale={locale} />
          </DecidedCard>
        ))}
      </DecisionHistory>
    </>
  );
}

/** The payout's transaction id, needed to approve (the user sees it, with its explorer page). */
function TxField({ w }: { w: QueueItem }) {
  const { t } = useTranslation();
  const coin = w.type === DrawType.Coin;
  const id = `tx-${w.id}`;
  return (
    <div className="field">
      <label htmlFor={id}>{t(coin ? "withdraw.tx_id" : "withdraw.bank_reference")}</label>
      <input id={id} name="tx" maxLength={200} autoComplete="off" spellCheck={false} className="mono" aria-describedby={`${id}-hint`} />
      <p className="hint" id={`${id}-hint`}>
        {t(coin ? "withdraw.tx_id_hint" : "withdraw.bank_reference_hint", { network: w.protocol })}
      </p>
    </div>
  );
}

function Title({ w, locale }: { w: QueueItem; locale: string }) {
  return (
    <strong>
      {`#${w.id}`} · <span className="num">{usd(w.amount, locale)}</span>
    </strong>
  );
}

function Facts({ w, locale }: { w: QueueItem; locale: string }) {
  const { t } = useTranslation();
  const coin = w.type === DrawType.Coin;
  return (
    <dl className="details record-details">
      <div>
        <dt>{t("admin.user")}</dt>
        <dd>
          {w.uid}
          {w.email ? ` · ${w.email}` : ""}
        </dd>
      </div>
      <div>
        <dt>{t("withdraw.currency")}</dt>
        <dd>{w.protocol ? `${w.currencyCode} · ${w.protocol}` : w.currencyCode}</dd>
      </div>
      <div>
        <dt>{t("withdraw.fee")}</dt>
        <dd className="num">{usd(w.fee, locale)}</dd>
      </div>
      <div>
        <dt>{t("withdraw.received")}</dt>
        <dd className="num">
          {w.realNumber} {w.currencyCode}
        </dd>
      </div>
      {coin ? (
        <div>
          <dt>{t("wallet.address")}</dt>
          <dd className="mono break">{w.address}</dd>
        </div>
      ) : (
        <>
          <div>
            <dt>{t("wallet.bank_name")}</dt>
            <dd>
              {w.bankName} · <span className="mono">{w.bankSwift}</span>
            </dd>
          </div>
          <div>
            <dt>{t("wallet.payee_name")}</dt>
            <dd>{w.payeeName}</dd>
          </div>
          <div>
            <dt>{t("wallet.payee_account")}</dt>
            <dd className="mono break">{w.payeeAccount}</dd>
          </div>
        </>
      )}
      {w.memo ? (
        <div>
          <dt>{t("withdraw.memo")}</dt>
          <dd>{w.memo}</dd>
        </div>
      ) : null}
      {w.notes ? (
        <div>
          <dt>{t("withdraw.notes")}</dt>
          <dd>{w.notes}</dd>
        </div>
      ) : null}
      <PayoutTx txId={w.txId} network={w.txNetwork} />
      <div>
        <dt>{t("withdraw.time")}</dt>
        <dd>
          <OrderTime ms={w.createdAt} locale={locale} />
        </dd>
      </div>
    </dl>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
