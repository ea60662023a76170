/**
 * Deposit (spec §2 /mine/charge?type: 0 coin, 1 bank; §3 Charge; §5): the user tells us what
 * they sent and proves it with a photo; an operator checks and credits the funding account.
 *
 * - Coin: the deposit currencies are links (?charge_id=…), so the chosen one's address and QR
 *   code (an SVG drawn on the server) show without JavaScript; the amount is in USD or a coin
 *   count (converted at the currency's usd_price, rounded down to the cent).
 * - Bank: the platform's wire accounts as a required choice (withdraw.no_pay_way).
 * - The form posts multipart (the proof streams to R2 without JavaScript; with it, the photo is
 *   uploaded ahead and only its id is posted). "Continue" checks everything and shows the
 *   confirm step with the USD amount; confirming creates one request (the form's request_id),
 *   then the records page opens with a success message. Demo users are refused.
 */
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getValibotConstraint } from "@conform-to/valibot";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/i18n/react";
import { AddressCard, DepositAmount } from "~/components/deposit";
import { FormErrors } from "~/components/fields";
import { SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { PhotoInput } from "~/components/photo-input";
import { RouteErrorBoundary } from "~/components/route-error";
import { depositAmount, DepositType, MAX_DEPOSIT, MAX_DEPOSIT_USD, shortAddress, type AmountUnit } from "~/domain/deposit";
import { formatMoney } from "~/domain/money";
import { DepositSchema } from "~/forms/deposit";
import { Intent } from "~/forms/intents";
import { submissionOf } from "~/forms/parse";
import { replyWithErrors } from "~/forms/reply";
import { translateMessage } from "~/lib/messages";
import { qrPath } from "~/lib/qr.server";
import { useRootData } from "~/lib/root-data";
import { chargeCurrencies, checkDeposit, submitDeposit, wireAccounts, type CheckedDeposit } from "~/services/deposit.server";
import { readFormWithUploads, uploadUrl } from "~/services/uploads.server";
import { redirectWithFlash, requireRealUser } from "~/services/web.server";
import depositStylesHref from "~/styles/deposit.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "deposit", "home", "upload", "wallet", "withdraw"] };

export const meta = titled("deposit.title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: depositStylesHref }];

function typeOf(url: URL): DepositType {
  return url.searchParams.get("type") === "1" ? DepositType.Bank : DepositType.Coin;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRealUser(context, request);
  const url = new URL(request.url);
  const type = typeOf(url);
  const [currencies, wires] = await Promise.all([
    chargeCurrencies(context),
    type === DepositType.Bank ? wireAccounts(context) : Promise.resolve([]),
  ]);
  const asked = Number(url.searchParams.get("charge_id"));
  const chosen = currencies.find((c) => c.id === asked) ?? currencies[0] ?? null;
  return {
    type,
    currencies: type === DepositType.Coin ? currencies : [],
    chosen,
    qr: type === DepositType.Coin && chosen ? qrPath(chosen.address) : null,
    wires,
    requestId: crypto.randomUUID(),
    constraint: getValibotConstraint(DepositSchema),
  };
}

/** What the confirm step shows and re-posts (all plain, serialisable values). */
function confirmView(c: CheckedDeposit, typed: { number: string; unit: AmountUnit }) {
  return {
    type: c.type,
    chargeId: c.chargeCurrency?.id ?? null,
    currency: c.chargeCurrency
      ? { code: c.chargeCurrency.currencyCode, protocol: c.chargeCurrency.protocolCode, address: c.chargeCurrency.address }
      : null,
    wire: c.wire ? { id: c.wire.id, bankName: c.wire.bankName, payeeName: c.wire.payeeName, payeeAccount: c.wire.payeeAccount } : null,
    amount: c.amount,
    coinCount: c.coinCount,
    currencyCode: c.currencyCode,
    address: c.address,
    proofUploadId: c.proofUploadId,
    proofUrl: uploadUrl(c.proofUploadId),
    requestId: c.requestId,
    number: typed.number,
    unit: typed.unit,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRealUser(context, request);
  const url = new URL(request.url);
  const type = typeOf(url);
  let form: URLSearchParams;
  try {
    form = await readFormWithUploads(context, request, user.id, { proofImg: "deposit_proof" });
  } catch (error) {
    if (error instanceof Response && error.status === 413) {
      return data(
        { result: { status: "error" as const, error: { proofImg: ["errors.upload_too_large"] } }, confirm: null },
        { status: 413 },
      );
    }
    throw error;
  }
  const intent = form.get("intent");
  const submission = submissionOf(DepositSchema, form);
  if (submission.status !== "success") return data({ result: submission.reply(), confirm: null }, { status: 400 });
  const input = { ...submission.value, type };
  switch (intent) {
    case Intent.ReviewDeposit: {
      const checked = await checkDeposit(context, user, input);
      if (!checked.ok) return data({ result: replyWithErrors(submission, checked.errors), confirm: null }, { status: checked.status });
      const unit: AmountUnit = type === DepositType.Coin && input.unit === "coin" ? "coin" : "usd";
      return { result: undefined, confirm: confirmView(checked.value, { number: input.number ?? "", unit }) };
    }
    case Intent.SubmitDeposit: {
      const done = await submitDeposit(context, user, input);
      if (!done.ok) return data({ result: replyWithErrors(submission, done.errors), confirm: null }, { status: done.status });
      return redirectWithFlash(context, `/mine/charge/records?type=${type}`, { kind: "success", message: "deposit.submitted" });
    }
    default:
      return data({ result: { status: "error" as const, error: { "": ["errors.bad_request"] } }, confirm: null }, { status: 400 });
  }
}

type Fields = Record<"charge_id" | "wire_id" | "number" | "unit" | "address" | "proofImg" | "request_id", string>;

export default function Charge() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = useRootData()?.locale ?? "en-US";
  const coin = d.type === DepositType.Coin;
  const confirm = actionData?.confirm ?? null;
  const tabHref = (type: number) => `/mine/charge?type=${type}`;
  const here = coin && d.chosen ? `/mine/charge?type=0&charge_id=${d.chosen.id}` : tabHref(d.type);

  return (
    <div className="page narrow deposit-page">
      <PageHeader
        title={t("deposit.title")}
        back="/user"
        actions={
          <Link to={`/mine/charge/records?type=${d.type}`} className="small-button button">
            {t("deposit.records")}
          </Link>
        }
      />
      <nav className="segmented" aria-label={t("deposit.method")}>
        <Link to={tabHref(0)} className={coin ? "active" : undefined} aria-current={coin ? "page" : undefined} replace>
          {t("deposit.coin")}
        </Link>
        <Link to={tabHref(1)} className={!coin ? "active" : undefined} aria-current={!coin ? "page" : undefined} replace>
          {t("deposit.bank")}
        </Link>
      </nav>
      {confirm ? (
        <ConfirmStep confirm={confirm} to={here} locale={locale} />
      ) : (
        <DepositForm key={`${d.type}|${d.chosen?.id ?? ""}`} to={here} />
      )}
    </div>
  );
}

function DepositForm({ to }: { to: string }) {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = useRootData()?.locale ?? "en-US";
  const coin = d.type === DepositType.Coin;
  const [form, fields] = useForm<Fields>({
    id: `deposit-${d.type}`,
    lastResult: actionData?.result,
    constraint: d.constraint,
    shouldRevalidate: "onBlur",
  });
  const initial = (name: keyof Fields) => {
    const value = fields[name]?.initialValue;
    return typeof value === "string" ? value : "";
  };
  const [typed, setTyped] = useState(() => ({
    number: initial("number"),
    unit: (initial("unit") === "coin" ? "coin" : "usd") as AmountUnit,
  }));
  const preview = coin && d.chosen && typed.unit === "coin" ? depositAmount(typed.number, "coin", d.chosen.usdPrice) : null;
  const numberError = fields.number.errors?.[0];
  const { key: numberKey, ...numberProps } = getInputProps(fields.number, { type: "text", ariaDescribedBy: `${fields.number.id}-hint` });
  const { key: unitKey, ...unitProps } = getSelectProps(fields.unit);
  const { key: addressKey, ...addressProps } = getInputProps(fields.address, { type: "text" });

  return (
    <>
      {coin ? (
        <>
          <section className="card" aria-labelledby="currency-title">
            <h2 id="currency-title">{t("deposit.currency")}</h2>
            <div className="chip-list" role="list">
              {d.currencies.map((c) => (
                <span role="listitem" key={c.id}>
                  <Link
                    to={`/mine/charge?type=0&charge_id=${c.id}`}
                    replace
                    preventScrollReset
                    className={d.chosen?.id === c.id ? "chip active" : "chip"}
                    aria-current={d.chosen?.id === c.id ? "true" : undefined}
                  >
                    {c.currencyCode} · {c.protocolCode}
                  </Link>
                </span>
              ))}
            </div>
          </section>
          {d.chosen ? (
            <AddressCard
              title={t("deposit.address_title", { currency: d.chosen.currencyCode, protocol: d.chosen.protocolCode })}
              address={d.chosen.address}
              qr={d.qr}
            />
          ) : null}
          {d.chosen ? (
            <p className="muted small">{t("deposit.address_hint", { currency: d.chosen.currencyCode, protocol: d.chosen.protocolCode })}</p>
          ) : null}
        </>
      ) : null}

      <Form method="post" action={to} encType="multipart/form-data" className="form card" {...getFormProps(form)} noValidate={false}>
        <FormErrors form={form} />
        <input type="hidden" name="request_id" value={d.requestId} />
        {coin ? (
          <>
            <input type="hidden" name="charge_id" value={d.chosen ? String(d.chosen.id) : ""} />
            {fields.charge_id.errors?.[0] ? (
              <p className="field-error" id={fields.charge_id.errorId}>
                {translateMessage(t, fields.charge_id.errors[0])}
              </p>
            ) : null}
          </>
        ) : (
          <fieldset
            className={fields.wire_id.errors?.[0] ? "field wire-list has-error" : "field wire-list"}
            aria-describedby={fields.wire_id.errors?.[0] ? fields.wire_id.errorId : undefined}
          >
            <legend>{t("deposit.wire_account")}</legend>
            {d.wires.map((w) => {
              const id = `${fields.wire_id.id}-${w.id}`;
              return (
                <label key={w.id} htmlFor={id} className="wire-option">
                  <input
                    type="radio"
                    id={id}
                    name="wire_id"
                    value={String(w.id)}
                    defaultChecked={initial("wire_id") === String(w.id)}
                    required
                  />
                  <dl className="details">
                    <div>
                      <dt>{t("deposit.bank_name")}</dt>
                      <dd>{w.bankName}</dd>
                    </div>
                    <div>
                      <dt>{t("deposit.bank_address")}</dt>
                      <dd>{w.bankAddress}</dd>
                    </div>
                    <div>
                      <dt>{t("deposit.bank_swift")}</dt>
                      <dd className="num" translate="no">
                        {w.bankSwift}
                      </dd>
                    </div>
                    <div>
                      <dt>{t("deposit.payee_name")}</dt>
                      <dd>{w.payeeName}</dd>
                    </div>
                    <div>
                      <dt>{t("deposit.payee_account")}</dt>
                      <dd className="num" translate="no">
                        {w.payeeAccount}
                      </dd>
                    </div>
                    {w.bankRemark ? (
                      <div>
                        <dt>{t("deposit.bank_remark")}</dt>
                        <dd>{w.bankRemark}</dd>
                      </div>
                    ) : null}
                  </dl>
                </label>
              );
            })}
            {fields.wire_id.errors?.[0] ? (
              <p className="field-error" id={fields.wire_id.errorId}>
                {translateMessage(t, fields.wire_id.errors[0])}
              </p>
            ) : null}
          </fieldset>
        )}

        <div className={numberError ? "field has-error" : "field"}>
          <label htmlFor={fields.number.id}>{coin && d.chosen ? t("deposit.amount") : t("deposit.amount_usd")}</label>
          <div className="input-row">
            <input
              key={numberKey}
              {...numberProps}
              inputMode="decimal"
              autoComplete="off"
              required
              onInput={(e) => {
                const number = e.currentTarget.value;
                setTyped((s) => ({ ...s, number }));
              }}
            />
            {coin && d.chosen ? (
              <select
                key={unitKey}
                {...unitProps}
                aria-label={t("deposit.unit")}
                defaultValue={typed.unit}
                onChange={(e) => {
                  const unit: AmountUnit = e.currentTarget.value === "coin" ? "coin" : "usd";
                  setTyped((s) => ({ ...s, unit }));
                }}
              >
                <option value="usd">USD</option>
                <option value="coin">{d.chosen.currencyCode}</option>
              </select>
            ) : (
              <span className="unit">USD</span>
            )}
          </div>
          <p className="hint" id={`${fields.number.id}-hint`}>
            {coin && d.chosen
              ? t("deposit.amount_hint_coin", {
                  currency: d.chosen.currencyCode,
                  price: d.chosen.usdPrice,
                  max: formatMoney(MAX_DEPOSIT, locale, 0),
                })
              : t("deposit.amount_hint", { max: formatMoney(MAX_DEPOSIT_USD * 1_000_000, locale, 0) })}
          </p>
          {preview?.ok ? (
            <p className="hint num" aria-live="polite">
              {t("deposit.usd_equivalent", { amount: formatMoney(preview.amount, locale, 2) })}
            </p>
          ) : null}
          {numberError ? (
            <p className="field-error" id={fields.number.errorId}>
              {translateMessage(t, numberError)}
            </p>
          ) : null}
        </div>

        {coin ? (
          <div className={fields.address.errors?.[0] ? "field has-error" : "field"}>
            <label htmlFor={fields.address.id}>{t("deposit.sender_address")}</label>
            <input key={addressKey} {...addressProps} autoComplete="off" spellCheck={false} />
            <p className="hint">{t("deposit.sender_address_hint")}</p>
            {fields.address.errors?.[0] ? (
              <p className="field-error" id={fields.address.errorId}>
                {translateMessage(t, fields.address.errors[0])}
              </p>
            ) : null}
          </div>
        ) : null}

        <PhotoInput
          name="proofImg"
          label={t("deposit.proof")}
          purpose="deposit_proof"
          error={fields.proofImg.errors?.[0] ?? null}
          hint={t("deposit.proof_hint")}
        />

        <SubmitButton intent={Intent.ReviewDeposit}>{t("deposit.continue")}</SubmitButton>
      </Form>
    </>
  );
}

type ConfirmView = ReturnType<typeof confirmView>;

function ConfirmStep({ confirm, to, locale }: { confirm: ConfirmView; to: string; locale: string }) {
  const { t } = useTranslation();
  return (
    <section className="card confirm-card" aria-labelledby="deposit-confirm-title">
      <h2 id="deposit-confirm-title">{t("deposit.confirm_title")}</h2>
      <dl className="details">
        <div>
          <dt>{t("deposit.amount_credited")}</dt>
          <dd className="big-number">
            <DepositAmount amount={confirm.amount} coinCount={confirm.coinCount} currencyCode={confirm.currencyCode} locale={locale} />
          </dd>
        </div>
        {confirm.currency ? (
          <>
            <div>
              <dt>{t("deposit.currency")}</dt>
              <dd>
                {confirm.currency.code} · {confirm.currency.protocol}
              </dd>
            </div>
            <div>
              <dt>{t("deposit.to_address")}</dt>
              <dd className="num" translate="no" title={confirm.currency.address}>
                {shortAddress(confirm.currency.address)}
              </dd>
            </div>
            {confirm.address ? (
              <div>
                <dt>{t("deposit.sender_address")}</dt>
                <dd className="num" translate="no" title={confirm.address}>
                  {shortAddress(confirm.address)}
                </dd>
              </div>
            ) : null}
          </>
        ) : null}
        {confirm.wire ? (
          <div>
            <dt>{t("deposit.wire_account")}</dt>
            <dd>
              {confirm.wire.bankName} · <span className="num">{confirm.wire.payeeAccount}</span>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{t("deposit.proof")}</dt>
          <dd>
            <img className="photo-preview" src={confirm.proofUrl} alt={t("deposit.proof")} />
          </dd>
        </div>
      </dl>
      <p className="muted small">{t("deposit.confirm_hint")}</p>
      <Form method="post" action={to} className="tiles">
        <input type="hidden" name="request_id" value={confirm.requestId} />
        <input type="hidden" name="number" value={confirm.number} />
        <input type="hidden" name="unit" value={confirm.unit} />
        <input type="hidden" name="proofImg" value={confirm.proofUploadId} />
        {confirm.chargeId !== null ? <input type="hidden" name="charge_id" value={String(confirm.chargeId)} /> : null}
        {confirm.wire ? <input type="hidden" name="wire_id" value={String(confirm.wire.id)} /> : null}
        {confirm.address ? <input type="hidden" name="address" value={confirm.address} /> : null}
        <Link to={to} className="button" replace>
          {t("deposit.edit")}
        </Link>
        <SubmitButton intent={Intent.SubmitDeposit}>{t("deposit.confirm")}</SubmitButton>
      </Form>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
