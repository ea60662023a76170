/**
 * The operator's withdrawal queue (issue 10 §6): pending requests (oldest first) with the user,
 * amount, fee, amount received, currency and payee; the latest decided ones with who decided and
 * when. Approve needs a fresh step-up (re-checked inside the payout's batch); reject needs a
 * reason and unlocks the amount. Plain POSTs answered with a redirect and a flash: works without
 * JavaScript. Everyone but an operator gets 404.
 */
import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ReviewForm } from "~/components/admin";
import { EmptyState } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { OrderTime } from "~/components/orders";
import { StatusBadge, usd } from "~/components/withdraw";
import { DrawType } from "~/domain/withdraw";
import { Intent } from "~/forms/intents";
import { DecisionSchema } from "~/forms/operator";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/root";
import { requireOperator, requireStepUp } from "~/services/operator.server";
import { approveWithdrawal, rejectWithdrawal, withdrawalQueue, type QueueItem } from "~/services/withdraw.server";
import { redirectWithFlash } from "~/services/web.server";
import walletStylesHref from "~/styles/withdraw.css";
import { titled } from "~/lib/meta";

export const meta = titled("admin.withdrawals", { console: true });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: walletStylesHref }];

const PATH = "/admin/withdrawals";

export async function loader({ context }: LoaderFunctionArgs) {
  const operator = await requireOperator(context);
  return withdrawalQueue(context, operator);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(context);
  const parsed = parseFields(DecisionSchema, await readForm(request));
  if (!parsed.ok) throw new Response("Unknown action", { status: 400 });
  const { intent, id, reason } = parsed.value;
  switch (intent) {
    case Intent.Approve: {
      // without a fresh step-up the operator confirms one first (then comes back here)
      const { sessionId } = await requireStepUp(context, request);
      const result = await approveWithdrawal(context, operator, sessionId, id);
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
      <section aria-labelledby="queue-pending">
        <h2 id="queue-pending">{t("admin.pending")}</h2>
        {pending.length === 0 ? (
          <EmptyState title={t("admin.queue_empty")} />
        ) : (
          <ul className="withdraw-queue">
            {pending.map((w) => (
              <li key={w.id} className="card" data-withdrawal={w.id}>
                <Item w={w} locale={locale} />
                <ReviewForm id={w.id} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="queue-decided">
        <h2 id="queue-decided">{t("admin.history")}</h2>
        {decided.length === 0 ? (
          <EmptyState title={t("common.no_data")} />
        ) : (
          <ul className="withdraw-queue">
            {decided.map((w) => (
              <li key={w.id} className="card" data-withdrawal={w.id}>
                <Item w={w} locale={locale} />
                {w.reviewedAt ? (
                  <p className="small muted">
                    {t("admin.decided_by", {
                      operator: w.reviewer ?? "",
                      time: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(w.reviewedAt)),
                    })}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function Item({ w, locale }: { w: QueueItem; locale: string }) {
  const { t } = useTranslation();
  const coin = w.type === DrawType.Coin;
  return (
    <>
      <div className="record-head">
        <strong>
          {`#${w.id}`} · <span className="num">{usd(w.amount, locale)}</span>
        </strong>
        <StatusBadge status={w.status} />
      </div>
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
        <div>
          <dt>{t("withdraw.time")}</dt>
          <dd>
            <OrderTime ms={w.createdAt} locale={locale} />
          </dd>
        </div>
      </dl>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
