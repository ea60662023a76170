/**
 * The contract order form (issue 8 §1, spec §2/§5/§7): lots with a step stepper, the multiple,
 * market or pending (with its buy price), stop-loss and take-profit behind toggles, and Buy /
 * Sell submit buttons; above them the live preview of margin, fee, prepayment ratio, notional
 * and the liquidation prices, computed by the same rule functions the server places the order
 * with. Without JavaScript it is a plain form: every field is there and the preview is the
 * server's estimate at the price when the page was rendered.
 */
import { getCollectionProps, getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { memo, useState, type ChangeEvent } from "react";
import { useTranslation } from "~/i18n/react";
import { FormErrors } from "~/components/fields";
import { useHydrated } from "~/components/hydrated";
import { useFeed, type ValueFeed } from "~/components/live";
import { hundredthsToPercent, pendingPriceBand, stepsToDecimal } from "~/domain/contract";
import { stepsToPrice } from "~/domain/market";
import { formatMoney } from "~/domain/money";
import { canDecreaseLots, needsLeverage, orderPreview, stepLots, type OrderFormTerms, type OrderPreview } from "~/domain/order-form";
import { formatPrice } from "~/lib/format";
import { translateMessage } from "~/lib/messages";

type Constraint = Parameters<typeof useForm>[0]["constraint"];

export interface OrderFormProps {
  /** The action URL (/trade?code=…). */
  action: string;
  instrumentId: number;
  precision: number;
  /** The instrument's trading terms (null: not tradable as configured). */
  order: OrderFormTerms | null;
  /** Whether the instrument's market is open (orders can be placed). */
  open: boolean;
  /**
   * The market price in steps (null: no quote), as a feed: the form reads it when the user acts
   * and only its preview re-renders on every tick.
   */
  price: ValueFeed<number | null>;
  /** The form's one-time token; null for visitors (Buy and Sell are links to the login). */
  requestId: string | null;
  loginHref: string;
  lastResult: SubmissionResult<string[]> | undefined;
  constraint: Constraint;
  locale: string;
}

/** The form's fields (spec §7 names), as conform sees them. */
type Fields = Record<
  | "forex_id"
  | "type"
  | "cont"
  | "multiple"
  | "status"
  | "target_price"
  | "stop_loss_on"
  | "stop_loss_price"
  | "take_profit_on"
  | "target_profit_price"
  | "request_id",
  string
>;

interface Values {
  lots: string;
  leverage: string;
  status: string;
  target: string;
  stopLoss: boolean;
  takeProfit: boolean;
}

function valuesOf(form: HTMLFormElement): Values {
  const data = new FormData(form);
  const text = (name: string) => {
    const value = data.get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    lots: text("cont"),
    leverage: text("multiple"),
    status: text("status") || "1",
    target: text("target_price"),
    stopLoss: data.has("stop_loss_on"),
    takeProfit: data.has("take_profit_on"),
  };
}

/** Memoised: a price tick re-renders the preview, not the form (see `price`). */
export const OrderForm = memo(function OrderForm({
  action,
  instrumentId,
  precision,
  order,
  open,
  price,
  requestId,
  loginHref,
  lastResult,
  constraint,
  locale,
}: OrderFormProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const leverages = order?.leverages ?? [];
  const needsMultiple = order ? needsLeverage(order.terms) : true;
  const [form, fields] = useForm<Fields>({
    id: "order",
    lastResult,
    constraint,
    defaultValue: { cont: order?.minLots ?? "", multiple: leverages[0] === undefined ? "" : String(leverages[0]), status: "1" },
  });
  const initial = (name: keyof typeof fields, fallback = "") => {
    const value = fields[name]?.initialValue;
    return typeof value === "string" ? value : fallback;
  };
  const [values, setValues] = useState<Values>(() => ({
    lots: initial("cont"),
    leverage: initial("multiple"),
    status: initial("status", "1"),
    target: initial("target_price"),
    stopLoss: initial("stop_loss_on") === "on",
    takeProfit: initial("take_profit_on") === "on",
  }));

  const noMultiple = needsMultiple && leverages.length === 0;
  const canOrder = open && order !== null && !noMultiple;
  // the price when the form last rendered (a keystroke, a toggle): enough for the typed checks
  const market = price.get();
  const pending = values.status === "0";
  const priceStep = stepsToDecimal(1, precision);
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/trade") === true;
  const pressed = submitting ? navigation.formData?.get("type") : null;

  const formElement = () => document.getElementById(form.id) as HTMLFormElement | null;
  const refresh = () => {
    const el = formElement();
    if (el) setValues(valuesOf(el));
  };
  /** Sets an input's value as if typed (conform and the preview both see it). */
  const setField = (name: string, value: string) => {
    const input = formElement()?.elements.namedItem(name);
    if (!(input instanceof HTMLInputElement)) return;
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
    refresh();
  };
  /** Spec §5: a toggle switched on starts at the current price. */
  const onToggle = (priceName: string) => (event: ChangeEvent<HTMLInputElement>) => {
    const now = price.get();
    if (event.currentTarget.checked && now !== null) setField(priceName, stepsToDecimal(now, precision));
    else refresh();
  };

  const input = { lots: values.lots, leverage: Number(values.leverage), pending, targetPrice: values.target };
  const preview = order ? orderPreview(order, input, market) : null;
  // With JavaScript the lots are checked as they are typed (the service's rule); the server's
  // message stays until the amount it refused is changed.
  const liveLotsError =
    hydrated && values.lots !== "" && preview && !preview.ok && preview.reason.startsWith("lots")
      ? lotsMessage(preview.reason, order!)
      : undefined;
  const lotsError = hydrated && values.lots !== initial("cont") ? liveLotsError : (fields.cont.errors?.[0] ?? liveLotsError);
  // a buy price far from the market is refused as it is typed (the service's rule)
  const band = market !== null ? pendingPriceBand(market) : null;
  const liveTargetError =
    hydrated && pending && preview && !preview.ok && preview.reason === "price_far" && band
      ? `errors.price_far|${stepsToDecimal(band.min, precision)} – ${stepsToDecimal(band.max, precision)}`
      : undefined;
  const targetError =
    hydrated && values.target !== initial("target_price") ? liveTargetError : (fields.target_price.errors?.[0] ?? liveTargetError);
  const { key: lotsKey, ...lotsProps } = getInputProps(fields.cont, { type: "number" });
  const { key: targetKey, ...targetProps } = getInputProps(fields.target_price, { type: "number" });
  const { key: slOnKey, ...slOnProps } = getInputProps(fields.stop_loss_on, { type: "checkbox" });
  const { key: slKey, ...slProps } = getInputProps(fields.stop_loss_price, { type: "number" });
  const { key: tpOnKey, ...tpOnProps } = getInputProps(fields.take_profit_on, { type: "checkbox" });
  const { key: tpKey, ...tpProps } = getInputProps(fields.target_profit_price, { type: "number" });
  const { key: multipleKey, ...multipleProps } = getSelectProps(fields.multiple);
  const lotsHintId = `${fields.cont.id}-hint`;

  return (
    <Form
      method="post"
      action={action}
      preventScrollReset
      className="form order-form"
      {...getFormProps(form)}
      noValidate={false}
      onChange={refresh}
    >
      {/* Enter in a field presses this one, not Buy: the server asks for Buy or Sell. */}
      <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true" />
      <FormErrors form={form} />
      <input type="hidden" name="forex_id" value={instrumentId} />
      {requestId ? <input type="hidden" name="request_id" value={requestId} /> : null}

      <div className={lotsError ? "field has-error" : "field"}>
        <label htmlFor={fields.cont.id}>{t("trade.lots")}</label>
        <div className="input-row stepper">
          {hydrated ? (
            <button
              type="button"
              className="icon-button step-button"
              aria-label={t("trade.decrease_lots")}
              aria-controls={fields.cont.id}
              disabled={!order || !canDecreaseLots(values.lots, order.lotStep)}
              onClick={() => order && setField("cont", stepLots(values.lots, order.lotStep, -1))}
            >
              <span aria-hidden="true" className="step-mark minus" />
            </button>
          ) : null}
          <input
            key={lotsKey}
            {...lotsProps}
            min={0}
            step={order?.lotStep ?? "any"}
            inputMode="decimal"
            autoComplete="off"
            aria-invalid={lotsError ? true : undefined}
            aria-describedby={lotsError ? `${fields.cont.errorId} ${lotsHintId}` : lotsHintId}
          />
          {hydrated ? (
            <button
              type="button"
              className="icon-button step-button"
              aria-label={t("trade.increase_lots")}
              aria-controls={fields.cont.id}
              disabled={!order}
              onClick={() => order && setField("cont", stepLots(values.lots, order.lotStep, 1))}
            >
              <span aria-hidden="true" className="step-mark plus" />
            </button>
          ) : null}
        </div>
        {order ? (
          <p className="hint" id={lotsHintId}>
            {t("trade.lots_hint", { step: order.lotStep, min: order.minLots })}
          </p>
        ) : null}
        <FieldError id={fields.cont.errorId} message={lotsError} />
      </div>

      {!needsMultiple ? (
        <p className="hint">{t("trade.fixed_margin")}</p>
      ) : noMultiple ? (
        <p className="notice warn" role="status">
          {t("errors.no_multiple")}
        </p>
      ) : (
        <div className={fields.multiple.errors ? "field has-error" : "field"}>
          <label htmlFor={fields.multiple.id}>{t("trade.multiple")}</label>
          <select key={multipleKey} {...multipleProps}>
            {leverages.map((value) => (
              <option key={value} value={value}>
                {t("trade.multiple_value", { value })}
              </option>
            ))}
          </select>
          <FieldError id={fields.multiple.errorId} message={fields.multiple.errors?.[0]} />
        </div>
      )}

      <fieldset className="choice">
        <legend>{t("trade.order_kind")}</legend>
        <div className="segmented choice-options">
          {getCollectionProps(fields.status, { type: "radio", options: ["1", "0"] }).map(({ key, ...props }) => (
            <label key={key} htmlFor={props.id}>
              <input {...props} />
              <span>{props.value === "1" ? t("trade.market_order") : t("trade.pending_order")}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <div className={targetError ? "field has-error" : "field"} hidden={hydrated && !pending}>
        <label htmlFor={fields.target_price.id}>{t("trade.buy_price")}</label>
        <input
          key={targetKey}
          {...targetProps}
          min={0}
          step={priceStep}
          inputMode="decimal"
          autoComplete="off"
          required={hydrated && pending}
          aria-invalid={targetError ? true : undefined}
          aria-describedby={
            [targetError ? fields.target_price.errorId : null, hydrated ? null : `${fields.target_price.id}-hint`]
              .filter(Boolean)
              .join(" ") || undefined
          }
        />
        {hydrated ? null : (
          <p className="hint" id={`${fields.target_price.id}-hint`}>
            {t("trade.buy_price_hint")}
          </p>
        )}
        <FieldError id={fields.target_price.errorId} message={targetError} />
      </div>

      <div className="stops">
        {(
          [
            {
              label: t("trade.stop_loss"),
              on: fields.stop_loss_on,
              onKey: slOnKey,
              onProps: slOnProps,
              price: fields.stop_loss_price,
              priceKey: slKey,
              priceProps: slProps,
              active: values.stopLoss,
            },
            {
              label: t("trade.take_profit"),
              on: fields.take_profit_on,
              onKey: tpOnKey,
              onProps: tpOnProps,
              price: fields.target_profit_price,
              priceKey: tpKey,
              priceProps: tpProps,
              active: values.takeProfit,
            },
          ] as const
        ).map((s) => (
          <div key={s.price.name} className={s.price.errors ? "field stop-field has-error" : "field stop-field"}>
            <label className="toggle" htmlFor={s.on.id}>
              <input key={s.onKey} {...s.onProps} onChange={onToggle(s.price.name)} />
              <span>{s.label}</span>
            </label>
            <input
              key={s.priceKey}
              {...s.priceProps}
              aria-label={s.label}
              min={0}
              step={priceStep}
              inputMode="decimal"
              autoComplete="off"
              disabled={hydrated && !s.active}
            />
            <FieldError id={s.price.errorId} message={s.price.errors?.[0]} />
          </div>
        ))}
        {hydrated ? null : <p className="hint stops-hint">{t("trade.stop_hint")}</p>}
      </div>

      <LivePreview order={order} input={input} price={price} precision={precision} locale={locale} estimate={!hydrated} />

      {!open ? (
        <p className="closed-note" role="status">
          {t("trade.market_closed")}
        </p>
      ) : null}
      <div className="tiles trade-buttons">
        {requestId === null && canOrder ? (
          <>
            <Link className="button buy" to={loginHref}>
              {t("trade.buy")}
            </Link>
            <Link className="button sell" to={loginHref}>
              {t("trade.sell")}
            </Link>
          </>
        ) : (
          <>
            <button
              type="submit"
              name="type"
              value="1"
              className="button buy"
              disabled={!canOrder || requestId === null || submitting}
              aria-busy={pressed === "1" || undefined}
            >
              {pressed === "1" ? <span className="spinner" aria-hidden="true" /> : null}
              {t("trade.buy")}
            </button>
            <button
              type="submit"
              name="type"
              value="2"
              className="button sell"
              disabled={!canOrder || requestId === null || submitting}
              aria-busy={pressed === "2" || undefined}
            >
              {pressed === "2" ? <span className="spinner" aria-hidden="true" /> : null}
              {t("trade.sell")}
            </button>
          </>
        )}
      </div>
      {requestId === null && canOrder ? <p className="muted small center">{t("trade.login_to_trade")}</p> : null}
    </Form>
  );
});

function lotsMessage(reason: string, order: OrderFormTerms): string {
  if (reason === "lots_step") return `errors.lots_step|${order.lotStep}`;
  if (reason === "lots_min") return `errors.lots_min|${order.minLots}`;
  if (reason === "lots_max") return "errors.lots_max|1000";
  return `errors.${reason}`;
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <p className="field-error" id={id}>
      {translateMessage(t, message)}
    </p>
  );
}

/** The preview at the live price: the one part of the form that renders on every tick. */
function LivePreview({
  order,
  input,
  price,
  ...figures
}: {
  order: OrderFormTerms | null;
  input: Parameters<typeof orderPreview>[1];
  price: ValueFeed<number | null>;
  precision: number;
  locale: string;
  estimate: boolean;
}) {
  const market = useFeed(price);
  const preview = order ? orderPreview(order, input, market) : null;
  return <PreviewFigures preview={preview} pending={input.pending} market={market} {...figures} />;
}

/**
 * The figures of the order being typed. Margin and fee at 6 decimals (spec §9), notional at 2,
 * the prepayment ratio in %, and the liquidation price a buy and a sell would open with.
 */
function PreviewFigures({
  preview,
  pending,
  market,
  precision,
  locale,
  estimate,
}: {
  preview: OrderPreview | null;
  pending: boolean;
  market: number | null;
  precision: number;
  locale: string;
  estimate: boolean;
}) {
  const { t } = useTranslation();
  const ok = preview?.ok ? preview : null;
  const price = (steps: number | null) =>
    steps === null ? t("trade.none") : formatPrice(stepsToPrice(steps, precision), precision, locale);
  const usd = (micros: number, decimals: number) => `${formatMoney(micros, locale, decimals)} USD`;
  const caption = !ok
    ? t("trade.preview_incomplete")
    : pending
      ? t("trade.preview_pending", { price: price(ok.price) })
      : estimate
        ? t("trade.preview_estimate", { price: price(market) })
        : t("trade.preview_live", { price: price(ok.price) });
  const rows: [string, string, string][] = [
    ["margin", t("trade.margin"), ok ? usd(ok.margin, 6) : "—"],
    ["fee", t("trade.fee"), ok ? usd(ok.fee, 6) : "—"],
    ["ratio", t("trade.prepayment_ratio"), ok && ok.prepaymentRatio !== null ? `${hundredthsToPercent(ok.prepaymentRatio)}%` : "—"],
    ["notional", t("trade.notional"), ok ? usd(ok.notional, 2) : "—"],
    ["liq-buy", t("trade.liquidation_buy"), ok ? price(ok.liquidation.buy) : "—"],
    ["liq-sell", t("trade.liquidation_sell"), ok ? price(ok.liquidation.sell) : "—"],
  ];
  return (
    <section className="order-preview" aria-labelledby="order-preview-title">
      <h3 id="order-preview-title">{t("trade.preview")}</h3>
      <p className="hint">{caption}</p>
      <dl className="preview-grid">
        {rows.map(([key, label, value]) => (
          <div key={key} data-figure={key}>
            <dt>{label}</dt>
            <dd className="num">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
