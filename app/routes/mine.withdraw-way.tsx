/**
 * Add a payout method (spec §2 /mine/withdraw-way?type — 1 coin address, 2 bank account; §3
 * Draw method fields). A coin address is checked against its currency's network (TRC20, ERC20,
 * BTC); a bank account needs bank name and address, SWIFT (8 or 11), payee name and account.
 * Plain POST; afterwards back to the withdraw page (from=withdraw) or to the list.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { getValibotConstraint } from "@conform-to/valibot";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { Field, FormErrors } from "~/components/fields";
import { SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { currencyLabel } from "~/components/withdraw";
import { DrawType, MAX_METHODS_PER_TYPE, pageTypeOf } from "~/domain/withdraw";
import { Intent } from "~/forms/intents";
import { submissionOf } from "~/forms/parse";
import { replyWithErrors } from "~/forms/reply";
import { BankMethodSchema, CoinMethodSchema } from "~/forms/withdraw";
import { readForm } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { bindMyMethod, myMethods } from "~/services/withdraw/methods.server";
import { myWithdrawCurrencies } from "~/services/withdraw/queries.server";
import { redirectWithFlash, requireRealUser, valueOf } from "~/services/web.server";
import walletStylesHref from "~/styles/withdraw.css";
import { pageMeta } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "orders", "trade", "wallet", "withdraw"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: walletStylesHref }];

function params(url: URL) {
  const drawType = url.searchParams.get("type") === "2" ? DrawType.Bank : DrawType.Coin;
  const fromWithdraw = url.searchParams.get("from") === "withdraw";
  return { drawType, fromWithdraw };
}

const listPath = (drawType: DrawType) => (drawType === DrawType.Coin ? "/mine/coin-address-list" : "/mine/bank-card-list");

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) =>
  pageMeta(matches, (t) => ({ title: d?.drawType === DrawType.Bank ? t("wallet.add_account") : t("wallet.add_address") }));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  const { drawType, fromWithdraw } = params(new URL(request.url));
  const [currencies, methods] = await Promise.all([
    myWithdrawCurrencies(context, drawType).then((read) => valueOf(context, request, read)),
    myMethods(context, user.id, drawType).then((read) => valueOf(context, request, read)),
  ]);
  return {
    drawType,
    fromWithdraw,
    currencies,
    full: methods.length >= MAX_METHODS_PER_TYPE,
    constraint: drawType === DrawType.Coin ? getValibotConstraint(CoinMethodSchema) : getValibotConstraint(BankMethodSchema),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRealUser(context, request);
  const { drawType, fromWithdraw } = params(new URL(request.url));
  const form = await readForm(request);
  if (form.get("intent") !== Intent.BindMethod)
    return data({ result: { status: "error" as const, error: { "": ["errors.bad_request"] } } }, { status: 400 });
  form.set("draw_type", String(drawType));
  const submission = drawType === DrawType.Coin ? submissionOf(CoinMethodSchema, form) : submissionOf(BankMethodSchema, form);
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const result = await bindMyMethod(context, user, submission.value);
  if (!result.ok) return data({ result: replyWithErrors(submission, result.errors) }, { status: result.status });
  const to = fromWithdraw ? `/mine/withdraw?type=${pageTypeOf(drawType)}` : listPath(drawType);
  return redirectWithFlash(context, to, { kind: "success", message: "wallet.bound" });
}

/** A refused form changed nothing: no need to reload the page's data. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionStatus, defaultShouldRevalidate }) =>
  actionStatus !== undefined && actionStatus >= 400 ? false : defaultShouldRevalidate;

type Fields = Record<
  "draw_currency_id" | "dc_address" | "bank_name" | "bank_address" | "bank_swift" | "payee_name" | "payee_account",
  string
>;

export default function WithdrawWay() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const coin = d.drawType === DrawType.Coin;
  const [form, fields] = useForm<Fields>({
    id: `way-${d.drawType}`,
    lastResult: actionData?.result,
    constraint: d.constraint,
    shouldValidate: "onSubmit",
    defaultValue: { draw_currency_id: d.currencies[0] ? String(d.currencies[0].id) : "" },
  });
  const selected = typeof fields.draw_currency_id.initialValue === "string" ? fields.draw_currency_id.initialValue : "";
  const query = (type: number) => `/mine/withdraw-way?type=${type}${d.fromWithdraw ? "&from=withdraw" : ""}`;
  const back = d.fromWithdraw ? `/mine/withdraw?type=${pageTypeOf(d.drawType)}` : listPath(d.drawType);
  return (
    <div className="page narrow methods-page">
      <PageHeader title={coin ? t("wallet.add_address") : t("wallet.add_account")} back={back} />
      <nav className="segmented" aria-label={t("withdraw.kind")}>
        {[DrawType.Coin, DrawType.Bank].map((ty) => (
          <Link
            key={ty}
            to={query(ty)}
            className={ty === d.drawType ? "active" : undefined}
            aria-current={ty === d.drawType ? "page" : undefined}
          >
            {ty === DrawType.Coin ? t("wallet.coin_address") : t("wallet.bank_account")}
          </Link>
        ))}
      </nav>
      {d.full ? (
        <p className="notice" role="status">
          {t("wallet.too_many_methods", { value: MAX_METHODS_PER_TYPE })}
        </p>
      ) : null}
      <Form method="post" action={query(d.drawType)} className="form card" {...getFormProps(form)}>
        <FormErrors form={form} />
        <div className={fields.draw_currency_id.errors ? "field has-error" : "field"}>
          <label htmlFor={fields.draw_currency_id.id}>{t("withdraw.currency")}</label>
          <select
            id={fields.draw_currency_id.id}
            name="draw_currency_id"
            defaultValue={selected}
            aria-invalid={fields.draw_currency_id.errors ? true : undefined}
          >
            {d.currencies.map((c) => (
              <option key={c.id} value={String(c.id)}>
                {currencyLabel(c)}
              </option>
            ))}
          </select>
          {fields.draw_currency_id.errors?.[0] ? (
            <p className="field-error" id={fields.draw_currency_id.errorId}>
              {translateMessage(t, fields.draw_currency_id.errors[0])}
            </p>
          ) : null}
        </div>
        {coin ? (
          <Field
            field={fields.dc_address}
            label={t("wallet.address")}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            hint={t("wallet.address_hint")}
          />
        ) : (
          <>
            <Field field={fields.bank_name} label={t("wallet.bank_name")} autoComplete="off" />
            <Field field={fields.bank_address} label={t("wallet.bank_address")} autoComplete="off" />
            <Field
              field={fields.bank_swift}
              label={t("wallet.bank_swift")}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              hint={t("wallet.swift_hint")}
            />
            <Field field={fields.payee_name} label={t("wallet.payee_name")} autoComplete="name" />
            <Field field={fields.payee_account} label={t("wallet.payee_account")} autoComplete="off" spellCheck={false} />
          </>
        )}
        <SubmitButton intent={Intent.BindMethod}>{t("wallet.save_method")}</SubmitButton>
      </Form>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
