/**
 * Withdraw (spec §2 /mine/withdraw?type — 0 coin, 1 bank; §5; §9). Real users only.
 *
 * - Without a bound method of the type: a confirm (wallet.not_bind) leading to /mine/withdraw-way.
 * - The form: currency (code, protocol, fee, minimum), payee address or account, amount in USD,
 *   optional note; with JavaScript the fee and the amount received update as the user types
 *   (the same function the server uses, app/domain/withdraw.ts).
 * - "Next" (intent preview) re-renders the page as a confirm step with the exact figures; only
 *   "Confirm withdrawal" (intent withdraw) requests it. Both are plain POSTs: the flow works
 *   without JavaScript. The form's one-time request_id makes a double submit one request.
 * - The records, paged, with their status (under review, paid, rejected).
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getValibotConstraint } from "@conform-to/valibot";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "~/i18n/react";
import { Field, FormErrors } from "~/components/fields";
import { SubmitButton } from "~/components/forms";
import { EmptyState, PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import {
  FeeText,
  Figures,
  PageLinks,
  RecordList,
  currencyLabel,
  methodLine,
  balanceUsd,
  usd,
  type CurrencyView,
  type MethodView,
} from "~/components/withdraw";
import { DrawType, drawTypeOfPage, previewWithdrawal, type WithdrawFigures } from "~/domain/withdraw";
import { Intent } from "~/forms/intents";
import { submissionOf } from "~/forms/parse";
import { cleanFields } from "~/lib/fields";
import { replyWithErrors } from "~/forms/reply";
import { WithdrawSchema, withdrawInputOf } from "~/forms/withdraw";
import { readForm } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { useRootData } from "~/lib/root-data";
import { prepareMyWithdrawal, requestMyWithdrawal } from "~/services/withdraw/commands.server";
import { myMethods } from "~/services/withdraw/methods.server";
import { myWithdrawBalance, myWithdrawCurrencies, myWithdrawals } from "~/services/withdraw/queries.server";
import { redirectWithFlash, requireRealUser, valueOf } from "~/services/web.server";
import walletStylesHref from "~/styles/withdraw.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "orders", "trade", "wallet", "withdraw"] };

export const meta = titled("withdraw.title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: walletStylesHref }];

function pageParams(url: URL) {
  const type = url.searchParams.get("type") === "1" ? ("1" as const) : ("0" as const);
  const raw = url.searchParams.get("page") ?? "";
  const page = /^\d{1,5}$/.test(raw) ? Math.max(1, Number(raw)) : 1;
  return { type, drawType: drawTypeOfPage(type), page };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  const { type, drawType, page } = pageParams(new URL(request.url));
  const read = <T,>(r: Promise<Parameters<typeof valueOf<T>>[2]>) => r.then((x) => valueOf(context, request, x));
  const [currencies, methods, balance, records] = await Promise.all([
    read(myWithdrawCurrencies(context, drawType)),
    read(myMethods(context, user.id, drawType)),
    read(myWithdrawBalance(context, user.id)),
    read(myWithdrawals(context, user.id, drawType, page)),
  ]);
  return {
    type,
    drawType,
    currencies,
    methods,
    available: balance?.available ?? 0,
    locked: balance?.locked ?? 0,
    records: records.records,
    page: records.page,
    lastPage: records.lastPage,
    requestId: crypto.randomUUID(),
    constraint: getValibotConstraint(WithdrawSchema),
  };
}

interface ConfirmView {
  currency: CurrencyView;
  method: MethodView;
  figures: WithdrawFigures;
  amount: string;
  memo: string;
  requestId: string;
}

type ActionData = { stage: "form"; result: SubmissionResult<string[]> } | { stage: "confirm"; confirm: ConfirmView };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRealUser(context, request);
  const { type, drawType } = pageParams(new URL(request.url));
  const form = await readForm(request);
  const intent = form.get("intent");
  const submission = submissionOf(WithdrawSchema, form);
  switch (intent) {
    case Intent.Edit: {
      // back from the confirm step to the form, with the values kept
      const values = Object.fromEntries([...cleanFields(form).entries()].filter(([k]) => k !== "intent"));
      return data<ActionData>({ stage: "form", result: { initialValue: values } });
    }
    case Intent.Preview:
    case Intent.Withdraw: {
      if (submission.status !== "success") return data<ActionData>({ stage: "form", result: submission.reply() }, { status: 400 });
      const input = { ...withdrawInputOf(submission.value), drawType };
      if (intent === Intent.Preview) {
        const prepared = await prepareMyWithdrawal(context, user, input);
        if (!prepared.ok)
          return data<ActionData>({ stage: "form", result: replyWithErrors(submission, prepared.errors) }, { status: prepared.status });
        const { currency, method, figures } = prepared.value;
        return data<ActionData>({
          stage: "confirm",
          confirm: { currency, method, figures, amount: input.amount, memo: input.memo, requestId: input.requestId ?? crypto.randomUUID() },
        });
      }
      const result = await requestMyWithdrawal(context, user, input);
      if (!result.ok)
        return data<ActionData>({ stage: "form", result: replyWithErrors(submission, result.errors) }, { status: result.status });
      return redirectWithFlash(context, `/mine/withdraw?type=${type}`, { kind: "success", message: "withdraw.requested" });
    }
    default:
      return data<ActionData>({ stage: "form", result: { status: "error", error: { "": ["errors.bad_request"] } } }, { status: 400 });
  }
}

/** The preview and edit steps change nothing: the page's data (and its request_id) stays as it is. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, actionStatus, defaultShouldRevalidate }) => {
  const intent = formData?.get("intent");
  if (intent === Intent.Preview || intent === Intent.Edit) return false;
  if (actionStatus !== undefined && actionStatus >= 400) return false;
  return defaultShouldRevalidate;
};

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function MineWithdraw() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = useRootData()?.locale ?? "en-US";
  const other = d.type === "0" ? "1" : "0";
  return (
    <div className="page narrow withdraw-page">
      <PageHeader title={t("withdraw.title")} back="/user" />
      <nav className="segmented" aria-label={t("withdraw.kind")}>
        {(["0", "1"] as const).map((ty) => (
          <Link
            key={ty}
            to={`/mine/withdraw?type=${ty}`}
            className={ty === d.type ? "active" : undefined}
            aria-current={ty === d.type ? "page" : undefined}
          >
            {ty === "0" ? t("withdraw.coin") : t("withdraw.bank")}
          </Link>
        ))}
      </nav>
      <section className="card funding-balance" aria-label={t("withdraw.funding_balance")}>
        <dl className="account-grid two">
          <div data-figure="available">
            <dt>{t("withdraw.available")}</dt>
            <dd className="num">{balanceUsd(d.available, locale)}</dd>
          </div>
          <div data-figure="locked">
            <dt>{t("withdraw.locked")}</dt>
            <dd className="num">{balanceUsd(d.locked, locale)}</dd>
          </div>
        </dl>
      </section>
      {d.methods.length === 0 ? (
        <NotBound drawType={d.drawType} />
      ) : actionData?.stage === "confirm" ? (
        <ConfirmStep confirm={actionData.confirm} type={d.type} locale={locale} />
      ) : (
        <WithdrawForm key={d.type} d={d} lastResult={actionData?.stage === "form" ? actionData.result : undefined} locale={locale} />
      )}
      <section className="card" aria-labelledby="withdraw-records">
        <h2 id="withdraw-records">{t("withdraw.records")}</h2>
        {d.records.length === 0 ? <EmptyState title={t("common.no_data")} /> : <RecordList records={d.records} locale={locale} />}
        <PageLinks page={d.page} lastPage={d.lastPage} href={(p) => `/mine/withdraw?type=${d.type}&page=${p}`} />
      </section>
      <p className="center small">
        <Link to={`/mine/withdraw?type=${other}`}>{other === "0" ? t("withdraw.switch_coin") : t("withdraw.switch_bank")}</Link>
      </p>
    </div>
  );
}

/** The confirm of spec §5: no method of this type yet. It works as a page state (no script needed). */
function NotBound({ drawType }: { drawType: number }) {
  const { t } = useTranslation();
  return (
    <section className="card confirm-card" role="alertdialog" aria-labelledby="not-bound-title" aria-describedby="not-bound-text">
      <h2 id="not-bound-title">{t("wallet.not_bind_title")}</h2>
      <p id="not-bound-text">{t("wallet.not_bind")}</p>
      <div className="tiles">
        <Link to="/user" className="button">
          {t("common.cancel")}
        </Link>
        <Link to={`/mine/withdraw-way?type=${drawType}&from=withdraw`} className="button primary">
          {t("wallet.bind_now")}
        </Link>
      </div>
    </section>
  );
}

type Fields = Record<"draw_currency_id" | "draw_method_id" | "number" | "memo" | "request_id", string>;

function WithdrawForm({ d, lastResult, locale }: { d: LoaderData; lastResult: SubmissionResult<string[]> | undefined; locale: string }) {
  const { t } = useTranslation();
  const firstMethod = d.methods[0]!;
  const [form, fields] = useForm<Fields>({
    id: "withdraw",
    lastResult,
    constraint: d.constraint,
    shouldValidate: "onSubmit",
    defaultValue: { draw_currency_id: String(firstMethod.drawCurrencyId), draw_method_id: String(firstMethod.id) },
  });
  const initial = (name: keyof Fields) => {
    const value = fields[name]?.initialValue;
    return typeof value === "string" ? value : "";
  };
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(() => ({ currency: initial("draw_currency_id"), amount: initial("number") }));
  const read = () => {
    const el = formRef.current;
    if (!el) return;
    const fd = new FormData(el);
    setValues({ currency: String(fd.get("draw_currency_id") ?? ""), amount: String(fd.get("number") ?? "") });
  };
  useEffect(read, [lastResult]);
  /** The method decides the currency (an address belongs to one network): keep the two in step. */
  const sync = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target;
    const el = formRef.current;
    if (el && target instanceof HTMLInputElement && target.type === "radio") {
      const radios = (name: string) => [...el.querySelectorAll<HTMLInputElement>(`input[type=radio][name=${name}]`)];
      if (target.name === "draw_method_id") {
        const method = d.methods.find((m) => String(m.id) === target.value);
        const radio = radios("draw_currency_id").find((r) => r.value === String(method?.drawCurrencyId));
        if (radio) radio.checked = true;
      } else if (target.name === "draw_currency_id") {
        const checked = radios("draw_method_id").find((r) => r.checked);
        const current = d.methods.find((m) => String(m.id) === checked?.value);
        if (current?.drawCurrencyId !== Number(target.value)) {
          const match = d.methods.find((m) => m.drawCurrencyId === Number(target.value));
          const radio = radios("draw_method_id").find((r) => r.value === String(match?.id));
          if (radio) radio.checked = true;
        }
      }
    }
    read();
  };

  const currency =
    d.currencies.find((c) => String(c.id) === values.currency) ?? d.currencies.find((c) => c.id === firstMethod.drawCurrencyId) ?? null;
  const figures = currency ? previewWithdrawal(values.amount, currency) : null;
  const manage = d.drawType === DrawType.Coin ? "/mine/coin-address-list" : "/mine/bank-card-list";

  return (
    <Form
      method="post"
      action={`/mine/withdraw?type=${d.type}`}
      className="form card"
      {...getFormProps(form)}
      ref={formRef}
      onChange={sync}
      onInput={read}
    >
      <button type="submit" name="intent" value={Intent.Preview} className="visually-hidden" tabIndex={-1} aria-hidden="true" />
      <FormErrors form={form} />
      <input type="hidden" name="request_id" value={initial("request_id") || d.requestId} />

      <fieldset className="choice" aria-describedby={fields.draw_currency_id.errors ? fields.draw_currency_id.errorId : undefined}>
        <legend>{t("withdraw.currency")}</legend>
        {d.currencies.map((c) => {
          const id = `currency-${c.id}`;
          return (
            <label key={c.id} htmlFor={id} className="choice-option">
              <input
                type="radio"
                id={id}
                name="draw_currency_id"
                value={String(c.id)}
                defaultChecked={initial("draw_currency_id") === String(c.id)}
              />
              <span className="choice-title">{currencyLabel(c)}</span>
              <span className="small muted">
                <FeeText currency={c} locale={locale} /> · {t("withdraw.min", { value: usd(c.minAmount, locale) })}
              </span>
            </label>
          );
        })}
        {fields.draw_currency_id.errors?.[0] ? (
          <p className="field-error" id={fields.draw_currency_id.errorId}>
            {translateMessage(t, fields.draw_currency_id.errors[0])}
          </p>
        ) : null}
      </fieldset>

      <fieldset className="choice" aria-describedby={fields.draw_method_id.errors ? fields.draw_method_id.errorId : undefined}>
        <legend>{d.drawType === DrawType.Coin ? t("withdraw.choose_address") : t("withdraw.choose_account")}</legend>
        {d.methods.map((m) => {
          const id = `method-${m.id}`;
          return (
            <label key={m.id} htmlFor={id} className="choice-option">
              <input
                type="radio"
                id={id}
                name="draw_method_id"
                value={String(m.id)}
                defaultChecked={initial("draw_method_id") === String(m.id)}
              />
              <span className="choice-title mono">{methodLine(m)}</span>
              <span className="small muted">{currencyLabel(m)}</span>
            </label>
          );
        })}
        {fields.draw_method_id.errors?.[0] ? (
          <p className="field-error" id={fields.draw_method_id.errorId}>
            {translateMessage(t, fields.draw_method_id.errors[0])}
          </p>
        ) : null}
        <p className="small">
          <Link to={manage}>{d.drawType === DrawType.Coin ? t("wallet.manage_addresses") : t("wallet.manage_accounts")}</Link>
        </p>
      </fieldset>

      <Field
        field={fields.number}
        label={t("withdraw.amount_usd")}
        inputMode="decimal"
        autoComplete="off"
        addon={<span className="unit">USD</span>}
        hint={t("withdraw.amount_hint", {
          available: balanceUsd(d.available, locale),
          min: currency ? usd(currency.minAmount, locale) : "—",
        })}
      />
      <Field field={fields.memo} label={t("withdraw.memo")} autoComplete="off" maxLength={200} />

      {currency && figures ? (
        <section className="withdraw-preview" aria-labelledby="withdraw-preview-title">
          <h3 id="withdraw-preview-title">{t("withdraw.preview_title")}</h3>
          <Figures figures={figures} currency={currency} locale={locale} id="withdraw-preview" />
          <p className="hint">{t("withdraw.preview_hint")}</p>
        </section>
      ) : null}
      <SubmitButton intent={Intent.Preview}>{t("withdraw.next")}</SubmitButton>
    </Form>
  );
}

/** The confirm step: the figures the request will have, then Confirm (or back to Edit). */
function ConfirmStep({ confirm, type, locale }: { confirm: ConfirmView; type: string; locale: string }) {
  const { t } = useTranslation();
  const { method, currency } = confirm;
  return (
    <section className="card confirm-card" aria-labelledby="withdraw-confirm-title" id="withdraw-confirm">
      <h2 id="withdraw-confirm-title">{t("withdraw.confirm_title")}</h2>
      <Figures figures={confirm.figures} currency={currency} locale={locale} />
      <dl className="details">
        <div>
          <dt>{t("withdraw.currency")}</dt>
          <dd>{currencyLabel(currency)}</dd>
        </div>
        {method.drawType === DrawType.Coin ? (
          <div>
            <dt>{t("wallet.address")}</dt>
            <dd className="mono break">{method.dcAddress}</dd>
          </div>
        ) : (
          <>
            <div>
              <dt>{t("wallet.bank_name")}</dt>
              <dd>{method.bankName}</dd>
            </div>
            <div>
              <dt>{t("wallet.payee_name")}</dt>
              <dd>{method.payeeName}</dd>
            </div>
            <div>
              <dt>{t("wallet.payee_account")}</dt>
              <dd className="mono">{method.payeeAccount}</dd>
            </div>
            <div>
              <dt>{t("wallet.bank_swift")}</dt>
              <dd className="mono">{method.bankSwift}</dd>
            </div>
          </>
        )}
        {confirm.memo ? (
          <div>
            <dt>{t("withdraw.memo")}</dt>
            <dd>{confirm.memo}</dd>
          </div>
        ) : null}
      </dl>
      <p className="hint">{t("withdraw.confirm_hint")}</p>
      <Form method="post" action={`/mine/withdraw?type=${type}`} className="tiles">
        <input type="hidden" name="draw_currency_id" value={String(currency.id)} />
        <input type="hidden" name="draw_method_id" value={String(method.id)} />
        <input type="hidden" name="number" value={confirm.amount} />
        <input type="hidden" name="memo" value={confirm.memo} />
        <input type="hidden" name="request_id" value={confirm.requestId} />
        <SubmitButton intent={Intent.Edit} className="button">
          {t("withdraw.edit")}
        </SubmitButton>
        <SubmitButton intent={Intent.Withdraw}>{t("withdraw.confirm")}</SubmitButton>
      </Form>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
