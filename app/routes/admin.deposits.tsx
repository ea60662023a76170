/**
 * The operator's deposit queue (issue 10 §2, §6): pending requests with the user, what they say
 * they sent, and their proof photo; approve (credits the funding account once, through the
 * ledger, and needs this session's fresh step-up), reject with a reason, or mark the proof
 * invalid (not a payment). Recently decided requests show who decided and when. Plain forms:
 * works without JavaScript. Anyone but an operator gets 404.
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { PrivateImage, QueueNotices } from "~/components/admin";
import { DecidedCard, DecisionHistory } from "~/components/decision-history";
import { DepositAmount, DepositStatusBadge } from "~/components/deposit";
import { SubmitButton } from "~/components/forms";
import { OrderTime } from "~/components/orders";
import { ReviewForm, ReviewItem, ReviewQueue } from "~/components/review-queue";
import { RouteErrorBoundary } from "~/components/route-error";
import { DepositStatus, DepositType } from "~/domain/deposit";
import { ReviewSchema } from "~/forms/deposit";
import { Intent } from "~/forms/intents";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import { approveDeposit, decidedDeposits, pendingDeposits, rejectDeposit, type QueuedDeposit } from "~/services/deposit.server";
import { requireOperator, requireStepUp, stepUpUntil } from "~/services/operator.server";
import { redirectWithFlash } from "~/services/web.server";
import depositStylesHref from "~/styles/deposit.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "deposit", "home", "identity", "orders", "trade", "wallet", "withdraw"] };

export const meta = titled("admin.deposits", { console: true });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: depositStylesHref }];

export async function loader({ context }: LoaderFunctionArgs) {
  const operator = await requireOperator(context);
  const [pending, decided, until] = await Promise.all([
    pendingDeposits(context, operator),
    decidedDeposits(context, operator),
    stepUpUntil(context),
  ]);
  return { pending, decided, stepUp: until > 0 };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  const parsed = parseFields(ReviewSchema, form);
  if (!parsed.ok) return data({ id: null, error: parsed.errors.id ?? parsed.errors.reason ?? "errors.bad_request" }, { status: 400 });
  const { id, reason } = parsed.value;
  let outcome;
  switch (intent) {
    case Intent.Approve: {
      // crediting money needs this session's fresh step-up (else: to /admin/verify and back here)
      const { sessionId } = await requireStepUp(context, request);
      outcome = await approveDeposit(context, operator, sessionId, id);
      break;
    }
    case Intent.Reject:
      outcome = await rejectDeposit(context, operator, id, reason ?? "", DepositStatus.Rejected);
      break;
    case Intent.MarkInvalid:
      outcome = await rejectDeposit(context, operator, id, reason ?? "", DepositStatus.Invalid);
      break;
    default:
      return data({ id, error: "errors.bad_request" }, { status: 400 });
  }
  if (!outcome.ok) {
    const error = Object.values(outcome.errors)[0] ?? "errors.try_again";
    if (error === "admin.already_decided" || error === "errors.not_found")
      return redirectWithFlash(context, "/admin/deposits", { kind: "error", message: error });
    return data({ id, error }, { status: outcome.status });
  }
  const message =
    intent === Intent.Approve ? "admin.approved" : intent === Intent.MarkInvalid ? "deposit.marked_invalid" : "admin.rejected";
  return redirectWithFlash(context, "/admin/deposits", { kind: "success", message });
}

function Facts({ d, locale }: { d: QueuedDeposit; locale: string }) {
  const { t } = useTranslation();
  return (
    <dl className="record-meta">
      <div>
        <dt>{t("admin.user")}</dt>
        <dd>
          <span className="num">{d.uid}</span> · {d.email ?? "—"}
        </dd>
      </div>
      <div>
        <dt>{t("deposit.type")}</dt>
        <dd>{d.type === DepositType.Coin ? t("deposit.coin") : t("deposit.bank")}</dd>
      </div>
      <div>
        <dt>{d.type === DepositType.Coin ? t("deposit.currency") : t("deposit.wire_account")}</dt>
        <dd>
          {d.type === DepositType.Coin
            ? `${d.currencyCode}${d.protocolCode ? ` · ${d.protocolCode}` : ""}`
            : `${d.bankName ?? "—"} · ${d.payeeAccount ?? ""}`}
        </dd>
      </div>
      {d.coinCount ? (
        <div>
          <dt>{t("deposit.usd_price")}</dt>
          <dd className="num">{d.usdPrice}</dd>
        </div>
      ) : null}
      {d.type === DepositType.Coin ? (
        <div>
          <dt>{t("deposit.sender_address")}</dt>
          <dd className="num address-text" translate="no">
            {d.address || "—"}
          </dd>
        </div>
      ) : null}
      <div>
        <dt>{t("deposit.time")}</dt>
        <dd>
          <OrderTime ms={d.createdAt} locale={locale} />
        </dd>
      </div>
    </dl>
  );
}

export default function AdminDeposits() {
  const { t } = useTranslation();
  const { pending, decided, stepUp } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <>
      <QueueNotices
        needsStepUp={!stepUp && pending.length > 0}
        from="/admin/deposits"
        error={actionData?.id === null ? actionData.error : null}
      />
      <ReviewQueue id="pending-title" title={t("admin.pending")} count={pending.length}>
        {pending.map((d) => (
          <ReviewItem
            key={d.id}
            id={`deposit-${d.id}`}
            heading={
              <span>
                {t("deposit.request_no", { id: d.id })} ·{" "}
                <DepositAmount amount={d.amount} coinCount={d.coinCount} currencyCode={d.currencyCode} locale={locale} />
              </span>
            }
          >
            <Facts d={d} locale={locale} />
            <PrivateImage uploadId={d.proofUploadId} alt={t("deposit.proof_of", { id: d.id })} />
            <ReviewForm
              id={d.id}
              approveLabel={t("deposit.approve_amount")}
              hint={t("deposit.reason_hint")}
              error={actionData?.id === d.id ? actionData.error : null}
            >
              <SubmitButton intent={Intent.MarkInvalid} className="button">
                {t("deposit.mark_invalid")}
              </SubmitButton>
            </ReviewForm>
          </ReviewItem>
        ))}
      </ReviewQueue>
      <DecisionHistory id="decided-title" count={decided.length} empty={t("deposit.none_decided")} cards>
        {decided.map((d) => (
          <DecidedCard key={d.id} decidedBy={d.decidedBy} decidedAt={d.decidedAt} locale={locale}>
            <div className="record-head">
              <span>
                {t("deposit.request_no", { id: d.id })} ·{" "}
                <DepositAmount amount={d.amount} coinCount={d.coinCount} currencyCode={d.currencyCode} locale={locale} />
              </span>
              <DepositStatusBadge status={d.status} />
            </div>
            <Facts d={d} locale={locale} />
            {d.remark ? (
              <p className="small">
                {t("deposit.remark")}: {d.remark}
              </p>
            ) : null}
          </DecidedCard>
        ))}
      </DecisionHistory>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
