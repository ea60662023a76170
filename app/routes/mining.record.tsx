/**
 * The user's subscriptions (spec §2 /mining/record, §4 Subscription states): paged — title,
 * currency, status, share amount, subscribe time, day profit, sum profit — with a link to the
 * daily income. Redemption only at status 1: "Redeem" opens a confirm step (?redeem=<id>: a
 * bottom sheet with JavaScript, a page section without) stating 'pay {amount}{currency} penal
 * sum for redemption' (penalty = share × liquidated damages / 100) and what comes back; confirming
 * asks for redemption (→ 2, or → 3 at once where the product approves automatically) and the list
 * reloads with a flash. Another user's subscription answers 404 like a missing one.
 */
import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useRef, type KeyboardEvent } from "react";
import { useTranslation } from "~/i18n/react";
import { SubmitButton } from "~/components/forms";
import { FundMoney, ProfitMoney, SubscriptionStatusBadge, FundFigure } from "~/components/fund";
import { useHydrated } from "~/components/hydrated";
import { CloseIcon } from "~/components/icons";
import { EmptyState, PageHeader } from "~/components/layout";
import { OrderTime } from "~/components/orders";
import { RouteErrorBoundary } from "~/components/route-error";
import { sheetKeyDown } from "~/components/sheet";
import { Pager } from "~/components/wallet";
import { SubscriptionStatus } from "~/domain/fund";
import { formatMoney } from "~/domain/money";
import { RedeemSchema, idParam, pageNumber } from "~/forms/fund";
import { Intent } from "~/forms/intents";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import { redeemMine } from "~/services/fund/commands.server";
import { myOwnedSubscription, mySubscriptions, redemptionOf } from "~/services/fund/queries.server";
import { redirectWithFlash, requireUser, valueOf } from "~/services/web.server";
import fundStylesHref from "~/styles/fund.css";
import ordersStylesHref from "~/styles/orders.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["accounts", "admin", "auth", "copy", "fund", "home", "orders", "trade", "wallet"] };

export const meta = titled("fund.records");

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: ordersStylesHref },
  { rel: "stylesheet", href: fundStylesHref },
];

function notFound() {
  return new Response("Not Found", { status: 404, headers: { "cache-control": "private, no-store" } });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const page = pageNumber(url.searchParams.get("page"));
  const redeemParam = url.searchParams.get("redeem");
  const [recordsRead, redeemRead] = await Promise.all([
    mySubscriptions(context, user.id, page),
    redeemParam !== null ? myOwnedSubscription(context, user.id, idParam(redeemParam)) : null,
  ]);
  const records = await valueOf(context, request, recordsRead);
  const redeem = redeemRead ? await valueOf(context, request, redeemRead) : null;
  if (redeemParam !== null && !redeem) throw notFound();
  return { records, redeem: redeem ? { ...redeem, ...redemptionOf(redeem) } : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const form = await readForm(request);
  if (form.get("intent") !== Intent.FundRedeem)
    return redirectWithFlash(context, "/mining/record", { kind: "error", message: "errors.bad_request" });
  const parsed = parseFields(RedeemSchema, form);
  const result = await redeemMine(context, user, parsed.ok ? parsed.value.subId : null);
  if (!result.ok) {
    if (result.status === 404) throw notFound();
    return redirectWithFlash(context, "/mining/record", { kind: "error", message: Object.values(result.errors)[0] ?? "errors.try_again" });
  }
  const message = result.value.status === SubscriptionStatus.Refunded ? "fund.refunded" : "fund.refund_requested";
  return redirectWithFlash(context, "/mining/record", { kind: "success", message });
}

type Redeem = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["redeem"]>;

function RedeemConfirm({ sub, locale }: { sub: Redeem; locale: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const ref = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const close = () => navigate("/mining/record", { replace: true, preventScrollReset: true });
  useEffect(() => heading.current?.focus({ preventScroll: true }), []);
  const canRedeem = sub.status === SubscriptionStatus.InProgress;
  return (
    <div className="sheet-layer">
      {hydrated ? <div className="sheet-backdrop" aria-hidden="true" onClick={close} /> : null}
      <section
        ref={ref}
        className="sheet"
        role="dialog"
        aria-modal={hydrated || undefined}
        aria-labelledby="redeem-title"
        onKeyDown={(e: KeyboardEvent) => hydrated && sheetKeyDown(e, ref.current, close)}
      >
        <header className="sheet-head">
          <h2 id="redeem-title" ref={heading} tabIndex={-1}>
            {t("fund.redeem_title")}
          </h2>
          <Link to="/mining/record" className="icon-button" aria-label={t("common.close")} replace preventScrollReset>
            <CloseIcon />
          </Link>
        </header>
        <p>{sub.title}</p>
        {canRedeem ? (
          <>
            <p className="penal-sum">{t("fund.penal_sum", { amount: formatMoney(sub.penalty, locale), currency: sub.currencyCode })}</p>
            <dl className="fund-figures confirm-figures">
              <FundFigure label={t("fund.share_amount")}>
                <FundMoney value={sub.shareAmount} currency={sub.currencyCode} locale={locale} />
              </FundFigure>
              <FundFigure label={t("fund.penalty")}>
                <FundMoney value={sub.penalty} currency={sub.currencyCode} locale={locale} />
              </FundFigure>
              <FundFigure label={t("fund.returned")}>
                <FundMoney value={sub.returned} currency={sub.currencyCode} locale={locale} />
              </FundFigure>
            </dl>
            <Form method="post" action="/mining/record" className="fund-actions">
              <input type="hidden" name="sub_id" value={sub.id} />
              <Link to="/mining/record" className="button" replace preventScrollReset>
                {t("common.cancel")}
              </Link>
              <SubmitButton intent={Intent.FundRedeem} className="button danger">
                {t("fund.redeem_confirm")}
              </SubmitButton>
            </Form>
          </>
        ) : (
          <p className="notice warn">{t("fund.not_redeemable")}</p>
        )}
      </section>
    </div>
  );
}

export default function RecordPage() {
  const { t } = useTranslation();
  const { records, redeem } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <div className="page narrow">
      <PageHeader title={t("fund.records")} back="/mining" />
      {records.items.length === 0 ? (
        <EmptyState title={t("common.no_data")}>
          <Link to="/mining" className="button primary">
            {t("fund.title")}
          </Link>
        </EmptyState>
      ) : (
        <ul className="fund-records">
          {records.items.map((s) => (
            <li key={s.id} className="card stack" aria-labelledby={`sub-${s.id}`}>
              <h2 id={`sub-${s.id}`} className="record-head">
                <span>
                  {s.title} <span className="currency-code">{s.currencyCode}</span>
                </span>
                <SubscriptionStatusBadge status={s.status} />
              </h2>
              <dl className="fund-figures">
                <FundFigure label={t("fund.share_amount")}>
                  <FundMoney value={s.shareAmount} currency={s.currencyCode} locale={locale} />
                </FundFigure>
                <FundFigure label={t("fund.sub_time")}>
                  <OrderTime ms={s.subTime} locale={locale} />
                </FundFigure>
                <FundFigure label={t("fund.day_profit")} up>
                  <ProfitMoney value={s.dayProfit} currency={s.currencyCode} locale={locale} />
                </FundFigure>
                <FundFigure label={t("fund.sum_profit")} up>
                  <ProfitMoney value={s.sumProfit} currency={s.currencyCode} locale={locale} />
                </FundFigure>
                <div>
                  <dt>{t("fund.period")}</dt>
                  <dd className="num">
                    <span className="fund-day">{s.startDay}</span> – <span className="fund-day">{s.endDay}</span>
                  </dd>
                </div>
                {s.penalty > 0 ? (
                  <FundFigure label={t("fund.penalty")}>
                    <FundMoney value={s.penalty} currency={s.currencyCode} locale={locale} />
                  </FundFigure>
                ) : null}
              </dl>
              <div className="fund-actions">
                <Link to={`/mining/income?id=${s.id}`} className="button">
                  {t("fund.income_link")}
                </Link>
                {s.status === SubscriptionStatus.InProgress ? (
                  <Link
                    to={`/mining/record?redeem=${s.id}${records.page > 1 ? `&page=${records.page}` : ""}`}
                    className="button danger"
                    preventScrollReset
                  >
                    {t("fund.redeem")}
                  </Link>
                ) : (
                  <button type="button" className="button" disabled>
                    {t("fund.redeem")}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Pager page={records.page} lastPage={records.lastPage} href={(p) => `/mining/record?page=${p}`} label={t("orders.pages")} />
      {redeem ? <RedeemConfirm sub={redeem} locale={locale} /> : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
