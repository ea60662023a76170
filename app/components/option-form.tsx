/**
 * The timed option form of the trade page's future tab (issue 9, spec §2/§4/§7): the duration as
 * a radio group (each with its payout % and minimum), the amount with preset stakes, the payout
 * before buying (amount × ProfitRatio, and the stake plus that) and the Buy up / Buy down submit
 * buttons; and the option-bought popup. Without JavaScript it is a plain form: the presets are
 * listed as a hint and the payout is the figure for the values the page was rendered with.
 */
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/i18n/react";
import { FormErrors } from "~/components/fields";
import { useHydrated } from "~/components/hydrated";
import { OrderTime, formatSteps } from "~/components/orders";
import { durationParts, lossIfWrong, profitFigure } from "~/domain/option";
import { formatMoney, parseAmount, toDecimalString, type Micros } from "~/domain/money";
import { translateMessage } from "~/lib/messages";
import { useUnitLocale } from "~/lib/unit-locale";
import type { BoughtOptionView, OptionTerms } from "~/services/option/views";

type Constraint = Parameters<typeof useForm>[0]["constraint"];

const UNIT = { seconds: "second", hours: "hour", days: "day" } as const;

/**
 * "30 seconds", "24 hours", "7 days" (spec §4 duration display), in the user's language with its
 * own plural forms (Intl's unit formatting knows Russian, Czech and Arabic plurals). `locale` is
 * the page's unit locale (useUnitLocale): Arabic, Burmese and Czech write their own words.
 */
export function durationText(locale: string, seconds: number): string {
  const { value, unit } = durationParts(seconds);
  return new Intl.NumberFormat(locale, { style: "unit", unit: UNIT[unit], unitDisplay: "long" }).format(value);
}

/** A profit ratio as a percentage: "0.85" → "85", "0.875" → "87.5". */
export function ratioPercent(ratio: string): string {
  const text = toDecimalString(profitFigure(100_000_000, ratio), 2);
  return text.replace(/\.?0+$/, "");
}

function usd(micros: Micros, locale: string) {
  return `${formatMoney(micros, locale, 2)} USD`;
}

/** The first preset the duration allows, or its minimum. */
function defaultAmount(terms: OptionTerms): string {
  const first = terms.durations[0];
  if (!first) return "";
  const preset = terms.amounts.find((a) => a >= first.minAmount);
  return toDecimalString(preset ?? first.minAmount, 2).replace(/\.00$/, "");
}

export interface OptionFormProps {
  action: string;
  instrumentId: number;
  terms: OptionTerms;
  requestId: string | null;
  loginHref: string;
  lastResult: SubmissionResult<string[]> | undefined;
  constraint: Constraint;
  locale: string;
}

type Fields = Record<"forex_id" | "type" | "number" | "seconds" | "request_id", string>;

export function OptionForm({ action, instrumentId, terms, requestId, loginHref, lastResult, constraint, locale }: OptionFormProps) {
  const { t } = useTranslation();
  const unitLocale = useUnitLocale(locale);
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [form, fields] = useForm<Fields>({
    id: "option",
    lastResult,
    constraint,
    defaultValue: { number: defaultAmount(terms), seconds: terms.durations[0] ? String(terms.durations[0].seconds) : "" },
  });
  const initial = (name: keyof Fields) => {
    const value = fields[name]?.initialValue;
    return typeof value === "string" ? value : "";
  };
  const [values, setValues] = useState(() => ({ amount: initial("number"), seconds: initial("seconds") }));
  const formRef = useRef<HTMLFormElement>(null);
  const refresh = () => {
    const el = formRef.current;
    if (!el) return;
    const data = new FormData(el);
    setValues({ amount: String(data.get("number") ?? ""), seconds: String(data.get("seconds") ?? "") });
  };
  // a re-rendered form (after a refusal) keeps what the user had typed
  useEffect(refresh, [lastResult]);
  const setAmount = (value: string) => {
    const input = formRef.current?.elements.namedItem("number");
    if (!(input instanceof HTMLInputElement)) return;
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    refresh();
  };

  const duration = terms.durations.find((d) => String(d.seconds) === values.seconds) ?? null;
  const amount = parseAmount(values.amount, 2);
  const profit = duration && amount !== null && amount > 0 ? profitFigure(amount, duration.profitRatio) : null;
  const loss = duration && amount !== null && amount > 0 ? lossIfWrong(amount, duration.profitRatio, terms.lossLevel) : null;
  const submitting =
    navigation.state === "submitting" &&
    navigation.formData?.get("seconds") !== null &&
    navigation.formAction?.startsWith("/trade") === true;
  const pressed = submitting ? navigation.formData?.get("type") : null;
  const { key: amountKey, ...amountProps } = getInputProps(fields.number, { type: "text" });
  const amountError = fields.number.errors?.[0];
  const hintId = `${fields.number.id}-hint`;

  return (
    <Form
      method="post"
      action={action}
      preventScrollReset
      className="form option-form"
      {...getFormProps(form)}
      ref={formRef}
      onChange={refresh}
      onInput={refresh}
    >
      {/* Enter in the amount presses this one, not Buy up: the server asks for a direction. */}
      <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
      <FormErrors form={form} />
      <input type="hidden" name="forex_id" value={instrumentId} />
      {requestId ? <input type="hidden" name="request_id" value={requestId} /> : null}

      <fieldset className="choice option-durations" aria-describedby={fields.seconds.errors ? fields.seconds.errorId : undefined}>
        <legend>{t("options.duration")}</legend>
        <div className="duration-grid">
          {terms.durations.map((d) => {
            const id = `${fields.seconds.id}-${d.seconds}`;
            return (
              <label key={d.id} htmlFor={id} className="duration-option">
                <input
                  type="radio"
                  id={id}
                  name={fields.seconds.name}
                  value={String(d.seconds)}
                  defaultChecked={initial("seconds") === String(d.seconds)}
                />
                <span className="duration-time">{durationText(unitLocale, d.seconds)}</span>
                <span className="duration-ratio num">{t("options.payout_percent", { value: ratioPercent(d.profitRatio) })}</span>
                <span className="duration-min small muted">{t("options.min_short", { value: formatMoney(d.minAmount, locale, 2) })}</span>
              </label>
            );
          })}
        </div>
        {fields.seconds.errors?.[0] ? (
          <p className="field-error" id={fields.seconds.errorId}>
            {translateMessage(t, fields.seconds.errors[0])}
          </p>
        ) : null}
      </fieldset>

      <div className={amountError ? "field has-error" : "field"}>
        <label htmlFor={fields.number.id}>{t("options.amount")}</label>
        <div className="input-row">
          <input
            key={amountKey}
            {...amountProps}
            inputMode="decimal"
            autoComplete="off"
            aria-invalid={amountError ? true : undefined}
            aria-describedby={amountError ? `${fields.number.errorId} ${hintId}` : hintId}
          />
          <span className="unit">USD</span>
        </div>
        <p className="hint" id={hintId}>
          {duration
            ? t("options.min_hint", {
                value: formatMoney(duration.minAmount, locale, 2),
                duration: durationText(unitLocale, duration.seconds),
              })
            : null}
          {hydrated ? null : ` ${t("options.presets_hint", { list: terms.amounts.map((a) => formatMoney(a, locale, 0)).join(", ") })}`}
        </p>
        {amountError ? (
          <p className="field-error" id={fields.number.errorId}>
            {translateMessage(t, amountError)}
          </p>
        ) : null}
        {hydrated && terms.amounts.length > 0 ? (
          <div className="amount-presets" role="group" aria-label={t("options.presets")}>
            {terms.amounts.map((a) => {
              const text = toDecimalString(a, 2).replace(/\.00$/, "");
              return (
                <button
                  key={a}
                  type="button"
                  className={amount === a ? "chip active" : "chip"}
                  aria-pressed={amount === a}
                  aria-controls={fields.number.id}
                  onClick={() => setAmount(text)}
                >
                  {formatMoney(a, locale, 0)}
                </button>
              );
            })}
          </div>
        ) : null}
      </div>

      <section className="option-payout" aria-labelledby="option-payout-title">
        <h3 id="option-payout-title">{t("options.payout_title")}</h3>
        <p className="hint">
          {profit !== null && duration
            ? t(hydrated ? "options.payout_caption" : "options.payout_caption_estimate", {
                amount: formatMoney(amount!, locale, 2),
                duration: durationText(unitLocale, duration.seconds),
              })
            : t("options.payout_incomplete")}
        </p>
        <dl className="preview-grid">
          <div data-figure="profit">
            <dt>{t("options.if_win_profit")}</dt>
            <dd className="num">{profit !== null ? `+${usd(profit, locale)}` : "—"}</dd>
          </div>
          <div data-figure="payout">
            <dt>{t("options.if_win_payout")}</dt>
            <dd className="num">{profit !== null ? usd(amount! + profit, locale) : "—"}</dd>
          </div>
          <div data-figure="loss">
            <dt>{t("options.if_wrong_loss")}</dt>
            <dd className="num">{loss !== null ? `-${usd(loss, locale)}` : "—"}</dd>
          </div>
        </dl>
      </section>

      <div className="tiles trade-buttons">
        {requestId === null ? (
          <>
            <Link className="button buy" to={loginHref}>
              {t("trade.buy_up")}
            </Link>
            <Link className="button sell" to={loginHref}>
              {t("trade.buy_down")}
            </Link>
          </>
        ) : (
          <>
            <button
              type="submit"
              name="type"
              value="1"
              className="button buy"
              disabled={submitting}
              aria-busy={pressed === "1" || undefined}
            >
              {pressed === "1" ? <span className="spinner" aria-hidden="true" /> : null}
              {t("trade.buy_up")}
            </button>
            <button
              type="submit"
              name="type"
              value="2"
              className="button sell"
              disabled={submitting}
              aria-busy={pressed === "2" || undefined}
            >
              {pressed === "2" ? <span className="spinner" aria-hidden="true" /> : null}
              {t("trade.buy_down")}
            </button>
          </>
        )}
      </div>
      {requestId === null ? <p className="muted small center">{t("options.login_to_buy")}</p> : null}
    </Form>
  );
}

/**
 * "Option bought": a card over the page (a plain section without JavaScript) with what was
 * bought; links to the options in transaction, or back to the trade page.
 */
export function BoughtDialog({ option, locale, closeHref }: { option: BoughtOptionView; locale: string; closeHref: string }) {
  const { t } = useTranslation();
  const unitLocale = useUnitLocale(locale);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [option.id]);
  const profit = profitFigure(option.amount, option.profitRatio);
  return (
    <div className="dialog-backdrop">
      <div className="card order-dialog" role="dialog" aria-labelledby="option-dialog-title" tabIndex={-1} ref={ref}>
        <h2 id="option-dialog-title">{t("option.bought")}</h2>
        <dl className="details">
          <div>
            <dt>{t("options.direction")}</dt>
            <dd>
              {option.showCode} · {t(option.direction === 1 ? "options.up" : "options.down")}
            </dd>
          </div>
          <div>
            <dt>{t("options.amount")}</dt>
            <dd className="num">{usd(option.amount, locale)}</dd>
          </div>
          <div>
            <dt>{t("options.duration")}</dt>
            <dd className="num">{durationText(unitLocale, option.seconds)}</dd>
          </div>
          <div>
            <dt>{t("options.open_price")}</dt>
            <dd className="num">{formatSteps(option.openPrice, option.precision, locale)}</dd>
          </div>
          <div>
            <dt>{t("options.expires_at")}</dt>
            <dd>
              <OrderTime ms={option.expiresAt} locale={locale} />
            </dd>
          </div>
          <div>
            <dt>{t("options.if_win_profit")}</dt>
            <dd className="num">+{usd(profit, locale)}</dd>
          </div>
        </dl>
        <div className="tiles">
          <Link to="/order?source=1&type=1" className="button">
            {t("trade.view_orders")}
          </Link>
          <Link to={closeHref} className="button primary" replace preventScrollReset>
            {t("common.confirm")}
          </Link>
        </div>
      </div>
    </div>
  );
}
