/**
 * Subscribe to a fund product (spec §2 /mining/subscribe?id, §5 Subscribe, §9 Mining): title,
 * image, currency, expected profit %, machine rent, mining time (lock days), maximum
 * subscription, the amount and the description. An empty amount shows 'input lock num' and
 * nothing opens. "Subscribe" opens the confirmation — a bottom sheet computed in the browser
 * with JavaScript, a page of its own (the server's check) without — with rent, mining time, day
 * profit (dividend % × amount / 100, 4 decimals), total profit (lock days × day profit) and the
 * amount; "Confirm" subscribes (one ledger transaction; the server enforces the minimum, the
 * maximum and the funding balance) and redirects to the records with a flash. A hidden
 * request_id makes a double submission one subscription. Demo users are refused.
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "~/i18n/react";
import { SubmitButton } from "~/components/forms";
import { Days, FundMoney, Percent, ProfitMoney, FundFigure } from "~/components/fund";
import { useHydrated } from "~/components/hydrated";
import { CloseIcon } from "~/components/icons";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { sheetKeyDown } from "~/components/sheet";
import { AMOUNT_DECIMALS, dayProfit, fundTermsKey, totalProfit } from "~/domain/fund";
import { formatBalance, formatMoney, parseAmount, type Micros } from "~/domain/money";
import { SubscribeSchema, idParam } from "~/forms/fund";
import { Intent } from "~/forms/intents";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { useRootData } from "~/lib/root-data";
import { checkMySubscription, subscribeMine } from "~/services/fund/commands.server";
import { fundInfo, myFundingBalance } from "~/services/fund/queries.server";
import { redirectWithFlash, requireRealUser, valueOf } from "~/services/web.server";
import fundStylesHref from "~/styles/fund.css";
import ordersStylesHref from "~/styles/orders.css";
import { pageMeta } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "fund"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: ordersStylesHref },
  { rel: "stylesheet", href: fundStylesHref },
];

function notFound() {
  return new Response("Not Found", { status: 404, headers: { "cache-control": "private, no-store" } });
}

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) =>
  pageMeta(matches, (t) => ({ title: d?.fund.title || t("fund.subscribe_title"), description: t("fund.meta_description") }));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const fund = await fundInfo(context, idParam(new URL(request.url).searchParams.get("id")));
  if (!fund) throw notFound();
  const user = await context.user();
  const available = user && !user.isDemo ? await valueOf(context, request, await myFundingBalance(context, user.id)) : null;
  return { fund, available, requestId: crypto.randomUUID() };
}

interface Confirm {
  amount: Micros;
  amountText: string;
  /** The product's terms as shown (fundTermsKey). */
  terms: string;
  dayProfit: Micros;
  totalProfit: Micros;
  requestId: string;
}

type ActionData = { errors: Record<string, string>; amount: string; confirm: Confirm | null };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRealUser(context, request);
  const form = await readForm(request);
  const intent = form.get("intent");
  // the product is the form's id, else the page's (?id=)
  if (!form.has("id")) form.set("id", new URL(request.url).searchParams.get("id") ?? "");
  const parsed = parseFields(SubscribeSchema, form);
  const command = parsed.ok ? parsed.value : { fundId: null, amount: "" };
  // the page always holds the subscription to the terms its confirm step showed
  const input = { ...command, amount: command.amount.slice(0, 32), terms: command.terms ?? "" };
  const amountText = input.amount.trim();
  const refused = (errors: Record<string, string | undefined>, status: number) =>
    data<ActionData>(
      {
        errors: Object.fromEntries(Object.entries(errors).filter((e): e is [string, string] => !!e[1])),
        amount: amountText,
        confirm: null,
      },
      { status },
    );
  if (intent === Intent.FundReview) {
    const checked = await checkMySubscription(context, user, input);
    if (!checked.ok) {
      if (checked.status === 404) throw notFound();
      return refused(checked.errors, checked.status);
    }
    const q = checked.value;
    return data<ActionData>({
      errors: {},
      amount: amountText,
      confirm: {
        amount: q.amount,
        amountText,
        dayProfit: q.dayProfit,
        totalProfit: q.totalProfit,
        requestId: input.requestId ?? "",
        terms: fundTermsKey(q.fund),
      },
    });
  }
  if (intent === Intent.FundSubscribe) {
    const result = await subscribeMine(context, user, input);
    if (!result.ok) return refused(result.errors, result.status === 404 ? 409 : result.status);
    return redirectWithFlash(context, "/mining/record", { kind: "success", message: "fund.subscribed" });
  }
  return refused({ form: "errors.bad_request" }, 400);
}

type Fund = ReturnType<typeof useLoaderData<typeof loader>>["fund"];

function Figures({ fund, confirm, locale }: { fund: Fund; confirm: Confirm; locale: string }) {
  const { t } = useTranslation();
  return (
    <dl className="fund-figures confirm-figures">
      <FundFigure label={t("fund.machine_rent")}>
        <FundMoney value={fund.startingSubAmount} currency={fund.currencyCode} locale={locale} />
      </FundFigure>
      <FundFigure label={t("fund.mining_time")}>
        <Days days={fund.lockDividendDays} locale={locale} />
      </FundFigure>
      <FundFigure label={t("fund.day_profit")} up>
        <ProfitMoney value={confirm.dayProfit} currency={fund.currencyCode} locale={locale} />
      </FundFigure>
      <FundFigure label={t("fund.total_profit")} up>
        <ProfitMoney value={confirm.totalProfit} currency={fund.currencyCode} locale={locale} />
      </FundFigure>
      <FundFigure label={t("fund.amount")}>
        <FundMoney value={confirm.amount} currency={fund.currencyCode} locale={locale} />
      </FundFigure>
    </dl>
  );
}

function ConfirmForm({ fund, confirm }: { fund: Fund; confirm: Confirm }) {
  const { t } = useTranslation();
  return (
    <Form method="post" action={`/mining/subscribe?id=${fund.id}`} className="fund-actions">
      <input type="hidden" name="id" value={fund.id} />
      <input type="hidden" name="amount" value={confirm.amountText} />
      <input type="hidden" name="request_id" value={confirm.requestId} />
      <input type="hidden" name="terms" value={confirm.terms} />
      <Link to={`/mining/subscribe?id=${fund.id}`} className="button" replace preventScrollReset>
        {t("fund.edit")}
      </Link>
      <SubmitButton intent={Intent.FundSubscribe}>{t("fund.confirm")}</SubmitButton>
    </Form>
  );
}

/** With JavaScript: the confirmation as a bottom sheet over the page. */
function ConfirmSheet({ fund, confirm, locale, onClose }: { fund: Fund; confirm: Confirm; locale: string; onClose: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus({ preventScroll: true }), []);
  return (
    <div className="sheet-layer">
      <div className="sheet-backdrop" aria-hidden="true" onClick={onClose} />
      <section
        ref={ref}
        className="sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby="fund-confirm-title"
        onKeyDown={(e: KeyboardEvent) => sheetKeyDown(e, ref.current, onClose)}
      >
        <header className="sheet-head">
          <h2 id="fund-confirm-title" ref={heading} tabIndex={-1}>
            {t("fund.confirm_title")}
          </h2>
          <button type="button" className="icon-button" aria-label={t("common.close")} onClick={onClose}>
            <CloseIcon />
          </button>
        </header>
        <p>{fund.title}</p>
        <Figures fund={fund} confirm={confirm} locale={locale} />
        <Form method="post" action={`/mining/subscribe?id=${fund.id}`} className="fund-actions">
          <input type="hidden" name="id" value={fund.id} />
          <input type="hidden" name="amount" value={confirm.amountText} />
          <input type="hidden" name="request_id" value={confirm.requestId} />
          <input type="hidden" name="terms" value={confirm.terms} />
          <button type="button" className="button" onClick={onClose}>
            {t("common.cancel")}
          </button>
          <SubmitButton intent={Intent.FundSubscribe}>{t("fund.confirm")}</SubmitButton>
        </Form>
      </section>
    </div>
  );
}

export default function SubscribePage() {
  const { t } = useTranslation();
  const { fund, available, requestId } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const locale = useRootData()?.locale ?? "en-US";
  const [localError, setLocalError] = useState<string | null>(null);
  const [sheet, setSheet] = useState<Confirm | null>(null);
  // a server answer replaces what the browser showed (its errors, or its own confirm page)
  useEffect(() => {
    setSheet(null);
    setLocalError(null);
  }, [actionData]);
  const serverConfirm = actionData?.confirm ?? null;
  const errors = actionData?.errors ?? {};
  const amountError = localError ?? errors.amount ?? null;
  const formError = errors.form ?? null;
  const summary = [formError, amountError].filter((e): e is string => !!e);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // with JavaScript the confirmation opens here, from the same rules; the server checks again on confirm
    event.preventDefault();
    const amountText = String(new FormData(event.currentTarget).get("amount") ?? "").trim();
    if (!amountText) return setLocalError("fund.input_lock_num");
    const amount = parseAmount(amountText, AMOUNT_DECIMALS);
    if (amount === null || amount <= 0) return setLocalError("fund.amount_invalid");
    setLocalError(null);
    setSheet({
      amount,
      amountText,
      dayProfit: dayProfit(amount, fund.dividendPercentage),
      totalProfit: totalProfit(amount, fund.dividendPercentage, fund.lockDividendDays),
      requestId,
      terms: fundTermsKey(fund),
    });
  };

  if (serverConfirm && navigation.state === "idle") {
    return (
      <div className="page narrow">
        <PageHeader title={t("fund.confirm_title")} back={`/mining/subscribe?id=${fund.id}`} />
        <section className="card confirm-card" aria-labelledby="fund-confirm-page-title">
          <h2 id="fund-confirm-page-title">{fund.title}</h2>
          <Figures fund={fund} confirm={serverConfirm} locale={locale} />
          <ConfirmForm fund={fund} confirm={serverConfirm} />
        </section>
      </div>
    );
  }

  return (
    <div className="page narrow">
      <PageHeader title={t("fund.subscribe_title")} back="/mining" />
      <section className="card stack" aria-labelledby="fund-title">
        <div className="fund-hero">
          <img src={fund.image || "/funds/hydro.svg"} alt="" width={64} height={64} />
          <h2 id="fund-title">{fund.title}</h2>
        </div>
        <dl className="fund-figures">
          <FundFigure label={t("fund.currency")}>{fund.currencyCode}</FundFigure>
          <FundFigure label={t("fund.expected_profit")} up>
            <Percent value={fund.dividendPercentage} locale={locale} />
          </FundFigure>
          <FundFigure label={t("fund.machine_rent")}>
            <FundMoney value={fund.startingSubAmount} currency={fund.currencyCode} locale={locale} />
          </FundFigure>
          <FundFigure label={t("fund.mining_time")}>
            <Days days={fund.lockDividendDays} locale={locale} />
          </FundFigure>
          <FundFigure label={t("fund.max_sub")}>
            <FundMoney value={fund.maxSubAmount} currency={fund.currencyCode} locale={locale} />
          </FundFigure>
          <FundFigure label={t("fund.penalty_rate")}>
            <Percent value={fund.liquidatedDamages} locale={locale} />
          </FundFigure>
        </dl>
        {fund.desc ? <p className="fund-desc">{fund.desc}</p> : null}
      </section>
      <Form
        method="post"
        action={`/mining/subscribe?id=${fund.id}`}
        className="form card"
        noValidate
        onSubmit={hydrated ? onSubmit : undefined}
      >
        {summary.length > 0 ? (
          <div className="form-errors" role="alert">
            <ul>
              {[...new Set(summary)].map((e) => (
                <li key={e}>{translateMessage(t, e)}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <input type="hidden" name="id" value={fund.id} />
        <input type="hidden" name="request_id" value={requestId} />
        <div className={amountError ? "field has-error" : "field"}>
          <label htmlFor="fund-amount">{t("fund.amount")}</label>
          <div className="input-row">
            <input
              id="fund-amount"
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              defaultValue={actionData?.amount ?? ""}
              key={actionData?.amount ?? ""}
              aria-invalid={amountError ? true : undefined}
              aria-describedby={amountError ? "fund-amount-hint fund-amount-error" : "fund-amount-hint"}
            />
            <span className="currency-code">{fund.currencyCode}</span>
          </div>
          <p className="hint" id="fund-amount-hint">
            {available === null
              ? t("fund.amount_hint_bounds", {
                  min: formatHint(fund.startingSubAmount, locale),
                  max: formatHint(fund.maxSubAmount, locale),
                })
              : t("fund.amount_hint", {
                  min: formatHint(fund.startingSubAmount, locale),
                  max: formatHint(fund.maxSubAmount, locale),
                  balance: formatBalance(available, locale),
                })}
          </p>
          {amountError ? (
            <p className="field-error" id="fund-amount-error">
              {translateMessage(t, amountError)}
            </p>
          ) : null}
        </div>
        <SubmitButton intent={Intent.FundReview}>{t("fund.subscribe")}</SubmitButton>
      </Form>
      {sheet ? <ConfirmSheet fund={fund} confirm={sheet} locale={locale} onClose={() => setSheet(null)} /> : null}
    </div>
  );
}

const formatHint = (value: Micros, locale: string) => formatMoney(value, locale);

export const ErrorBoundary = RouteErrorBoundary;
