/**
 * The operator's mining console (issue 12 §2): redemption requests waiting (status 2) with the
 * share, the penalty and what returns — approve (returns share − penalty once through the ledger,
 * needs this session's fresh step-up) or reject with a reason (back to status 1, no money moves);
 * and every fund product, editable: open/closed, automatic approval of redemptions, the daily
 * profit %, machine rent, maximum, lock days and penalty % (validated; existing subscriptions keep
 * the terms they were sold with). Plain forms: works without JavaScript. Non-operators get 404.
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { QueueNotices } from "~/components/admin";
import { ReviewForm, ReviewItem, ReviewQueue } from "~/components/review-queue";
import { ErrorSummary, PlainField, SubmitButton } from "~/components/forms";
import { FundMoney, Percent, FundFigure } from "~/components/fund";
import { OrderTime } from "~/components/orders";
import { RouteErrorBoundary } from "~/components/route-error";
import { toDecimalString } from "~/domain/money";
import { ReviewSchema } from "~/forms/deposit";
import { Intent } from "~/forms/intents";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import { idParam } from "~/forms/fund";
import { allFunds, approveRedemption, pendingRedemptions, rejectRedemption, updateFund } from "~/services/fund/operator.server";
import { requireOperator, requireStepUp, stepUpUntil } from "~/services/operator.server";
import { redirectWithFlash } from "~/services/web.server";
import depositStylesHref from "~/styles/deposit.css";
import fundStylesHref from "~/styles/fund.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "deposit", "fund", "orders", "trade"] };

export const meta = titled("fund.admin_nav", { console: true });

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: depositStylesHref },
  { rel: "stylesheet", href: fundStylesHref },
];

export async function loader({ context }: LoaderFunctionArgs) {
  const operator = await requireOperator(context);
  const [pending, funds, until] = await Promise.all([
    pendingRedemptions(context, operator),
    allFunds(context, operator),
    stepUpUntil(context),
  ]);
  return { pending, funds, stepUp: until > 0 };
}

const FUND_FIELDS = [
  "dividend_percentage",
  "starting_sub_amount",
  "max_sub_amount",
  "lock_dividend_days",
  "liquidated_damages",
  "status",
  "auto_refund",
] as const;

type ActionData = { id: number | null; fundId?: number; error?: string; errors?: Record<string, string>; values?: Record<string, string> };

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === Intent.FundSave) {
    const id = idParam(form.get("fund_id"));
    if (id === null) return data<ActionData>({ id: null, error: "errors.not_found" }, { status: 400 });
    const field = (name: string) => form.get(name) ?? undefined;
    const result = await updateFund(context, operator, {
      id,
      dividend_percentage: field("dividend_percentage"),
      starting_sub_amount: field("starting_sub_amount"),
      max_sub_amount: field("max_sub_amount"),
      lock_dividend_days: field("lock_dividend_days"),
      liquidated_damages: field("liquidated_damages"),
      status: field("status"),
      auto_refund: field("auto_refund"),
    });
    // refused: the operator's typed values come back with the errors next to their fields
    const values = Object.fromEntries(FUND_FIELDS.map((n) => [n, (form.get(n) ?? "").slice(0, 40)]));
    if (!result.ok)
      return data<ActionData>(
        {
          id: null,
          fundId: id,
          errors: Object.fromEntries(Object.entries(result.errors).filter((e): e is [string, string] => !!e[1])),
          values,
        },
        { status: result.status },
      );
    return redirectWithFlash(context, "/admin/funds", { kind: "success", message: "fund.admin_saved" });
  }
  const parsed = parseFields(ReviewSchema, form);
  if (!parsed.ok)
    return data<ActionData>({ id: null, error: parsed.errors.id ?? parsed.errors.reason ?? "errors.bad_request" }, { status: 400 });
  const { id, reason } = parsed.value;
  let outcome;
  switch (intent) {
    case Intent.Approve: {
      const { sessionId } = await requireStepUp(context, request);
      outcome = await approveRedemption(context, operator, sessionId, id);
      break;
    }
    case Intent.Reject:
      outcome = await rejectRedemption(context, operator, id, reason ?? "");
      break;
    default:
      return data<ActionData>({ id, error: "errors.bad_request" }, { status: 400 });
  }
  if (!outcome.ok) {
    const error = Object.values(outcome.errors)[0] ?? "errors.try_again";
    if (error === "admin.already_decided" || error === "errors.not_found")
      return redirectWithFlash(context, "/admin/funds", { kind: "error", message: error });
    return data<ActionData>({ id, error }, { status: outcome.status });
  }
  return redirectWithFlash(context, "/admin/funds", {
    kind: "success",
    message: intent === Intent.Approve ? "admin.approved" : "admin.rejected",
  });
}

type FundRow = ReturnType<typeof useLoaderData<typeof loader>>["funds"][number];

function FundEditor({ f, errors, typed }: { f: FundRow; errors: Record<string, string>; typed?: Record<string, string> }) {
  const { t } = useTranslation();
  const input = (name: string, label: string, value: string, inputMode: "decimal" | "numeric" = "decimal") => (
    <PlainField
      id={`fund-${f.id}-${name}`}
      name={name}
      label={label}
      defaultValue={typed?.[name] ?? value}
      error={errors[name]}
      inputMode={inputMode}
      autoComplete="off"
      required
    />
  );
  return (
    <Form method="post" className="stack" aria-label={f.title}>
      <input type="hidden" name="fund_id" value={f.id} />
      <ErrorSummary errors={errors} />
      <div className="admin-edit-grid">
        {input("dividend_percentage", t("fund.admin_dividend"), f.dividendPercentage)}
        {input("starting_sub_amount", t("fund.machine_rent"), toDecimalString(f.startingSubAmount, 2))}
        {input("max_sub_amount", t("fund.max_sub"), toDecimalString(f.maxSubAmount, 2))}
        {input("lock_dividend_days", t("fund.mining_time"), String(f.lockDividendDays), "numeric")}
        {input("liquidated_damages", t("fund.penalty_rate"), f.liquidatedDamages)}
        <label className="field-check">
          <input type="checkbox" name="status" value="1" defaultChecked={typed ? typed.status === "1" : f.status === 1} />
          {t("fund.admin_open")}
        </label>
        <label className="field-check">
          <input type="checkbox" name="auto_refund" value="1" defaultChecked={typed ? typed.auto_refund === "1" : f.autoRefund === 1} />
          {t("fund.admin_auto_refund")}
        </label>
      </div>
      <SubmitButton intent={Intent.FundSave}>{t("fund.admin_save")}</SubmitButton>
    </Form>
  );
}

export default function AdminFunds() {
  const { t } = useTranslation();
  const { pending, funds, stepUp } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <>
      <QueueNotices
        needsStepUp={!stepUp && pending.length > 0}
        from="/admin/funds"
        error={actionData?.id === null ? actionData.error : null}
      />
      <ReviewQueue id="redemptions-title" title={t("fund.admin_redemptions")} count={pending.length}>
        {pending.map((s) => (
          <ReviewItem
            key={s.id}
            id={`redemption-${s.id}`}
            heading={
              <span>
                #{s.id} · {s.title}
              </span>
            }
          >
            <dl className="record-meta">
              <FundFigure label={t("admin.user")}>
                <span className="num">{s.uid}</span> · {s.email ?? "—"}
              </FundFigure>
              <FundFigure label={t("fund.share_amount")}>
                <FundMoney value={s.shareAmount} currency={s.currencyCode} locale={locale} />
              </FundFigure>
              <FundFigure label={t("fund.penalty")}>
                <FundMoney value={s.penalty} currency={s.currencyCode} locale={locale} /> (
                <Percent value={s.liquidatedDamages} locale={locale} />)
              </FundFigure>
              <FundFigure label={t("fund.returned")}>
                <FundMoney value={s.shareAmount - s.penalty} currency={s.currencyCode} locale={locale} />
              </FundFigure>
              <div>
                <dt>{t("fund.period")}</dt>
                <dd className="num">
                  <span className="fund-day">{s.startDay}</span> – <span className="fund-day">{s.endDay}</span>
                </dd>
              </div>
              <FundFigure label={t("fund.requested_at")}>
                <OrderTime ms={s.refundRequestedAt} locale={locale} />
              </FundFigure>
            </dl>
            <ReviewForm id={s.id} reasonRequired error={actionData?.id === s.id ? actionData.error : null} />
          </ReviewItem>
        ))}
      </ReviewQueue>
      <section aria-labelledby="products-title" className="stack">
        <h2 id="products-title" className="section-title">
          {t("fund.admin_products")}
        </h2>
        {funds.map((f) => (
          <article key={f.id} className="card stack">
            <h3 className="record-head">
              <span>{f.title}</span>
              <span className="badge">{f.status === 1 ? t("fund.admin_open") : t("fund.admin_closed")}</span>
            </h3>
            <FundEditor
              f={f}
              errors={actionData?.fundId === f.id ? (actionData.errors ?? {}) : {}}
              typed={actionData?.fundId === f.id ? actionData.values : undefined}
            />
          </article>
        ))}
      </section>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
