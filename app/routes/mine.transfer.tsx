/**
 * Transfer between the user's own accounts (spec §2 /mine/transfer, §4, §5, §9): from and to
 * (funding, option, contract) must differ — with JavaScript, choosing one equal to the other
 * swaps the other; without it the server refuses the pair with a message. The amount is
 * required, positive, with at most 2 decimals and within the available balance of `from` (shown
 * under the field, cut toward zero: never more than can be moved). "Transfer all" moves the whole
 * available balance exactly (0.175 after a fund's income, which shows as 0.17): its confirm step
 * carries the exact amount. "Continue" shows what will move (a confirm step that is a page of its own
 * without JavaScript); "Confirm transfer" posts one ledger transaction and redirects with a
 * flash. A hidden request_id makes a double submission one transfer. With JavaScript the
 * balances refresh 1 s after submitting. The transfer log (amount, from, to, time) is below,
 * paged by plain links. Demo users are refused ('only real account').
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getValibotConstraint } from "@conform-to/valibot";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type ChangeEvent, type MouseEvent } from "react";
import { useTranslation } from "~/i18n/react";
import { Field, FormErrors } from "~/components/fields";
import { SubmitButton } from "~/components/forms";
import { useHydrated } from "~/components/hydrated";
import { TransferIcon } from "~/components/icons";
import { EmptyState, PageHeader } from "~/components/layout";
import { Balance, Money } from "~/components/money";
import { OrderTime } from "~/components/orders";
import { RouteErrorBoundary } from "~/components/route-error";
import { Pager, type AccountView } from "~/components/wallet";
import { exactDecimals, formatBalance, formatMoney, toDecimalString, type Micros } from "~/domain/money";
import { WALLET_ACCOUNTS, accountTypeOf, checkTransfer, pageParam, pickAccount, walletAccount, type AccountTypeId } from "~/domain/wallet";
import { Intent } from "~/forms/intents";
import { submissionOf } from "~/forms/parse";
import { replyWithErrors } from "~/forms/reply";
import { TransferSchema, transferCommandOf } from "~/forms/wallet";
import { readForm } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { useRootData } from "~/lib/root-data";
import { myBalances, myTransfer, myTransferLog } from "~/services/wallet.server";
import { redirectWithFlash, requireRealUser, valueOf } from "~/services/web.server";
import walletStylesHref from "~/styles/wallet.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["accounts", "admin", "auth", "copy", "home", "orders", "trade", "transfer", "wallet"] };

export const meta = titled("transfer.title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: walletStylesHref }];

/** The page's address for a pair (and a log page). */
function transferHref(from: number, to: number, extra = "") {
  return `/mine/transfer?from=${from}&to=${to}${extra}`;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  const url = new URL(request.url);
  const from = accountTypeOf(url.searchParams.get("from")) ?? 1;
  let to = accountTypeOf(url.searchParams.get("to")) ?? (from === 3 ? 1 : 3);
  if (to === from) to = WALLET_ACCOUNTS.find((a) => a.accountTypeId !== from)!.accountTypeId;
  const [balances, transfers] = await Promise.all([
    myBalances(context, user.id),
    myTransferLog(context, user.id, pageParam(url.searchParams.get("page"))),
  ]);
  const [b, log] = [await valueOf(context, request, balances), await valueOf(context, request, transfers)];
  return {
    accounts: b.accounts.map((a) => ({ kind: a.kind, accountTypeId: a.accountTypeId, balance: a.balance, lockBalance: a.lockBalance })),
    from,
    to,
    /** The form's one-time token (a double submission transfers once). */
    requestId: crypto.randomUUID(),
    log,
    done: url.searchParams.get("done") === "1",
    constraint: getValibotConstraint(TransferSchema),
  };
}

interface Confirm {
  from: AccountTypeId;
  to: AccountTypeId;
  amount: Micros;
  balance: string;
  requestId: string | null;
}

type ActionData = { result: SubmissionResult<string[]>; confirm: Confirm | null };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRealUser(context, request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== Intent.TransferReview && intent !== Intent.TransferAll && intent !== Intent.Transfer) {
    return data<ActionData>({ result: { status: "error", error: { "": ["errors.bad_request"] } }, confirm: null }, { status: 400 });
  }
  const submission = submissionOf(TransferSchema, form);
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply(), confirm: null }, { status: 400 });
  const v = submission.value;
  if (intent === Intent.TransferReview || intent === Intent.TransferAll) {
    const b = await valueOf(context, request, await myBalances(context, user.id));
    const available = b.accounts.find((a) => a.accountTypeId === accountTypeOf(v.from))?.balance ?? 0;
    if (intent === Intent.TransferAll && available <= 0) {
      return data<ActionData>({ result: replyWithErrors(submission, { balance: "transfer.err_nothing" }), confirm: null }, { status: 400 });
    }
    // everything: the exact amount (as many decimals as it has), which the transfer accepts as the whole balance
    const amount = intent === Intent.TransferAll ? toDecimalString(available, exactDecimals(available)) : v.balance;
    const check = checkTransfer({ from: v.from, to: v.to, amount }, available);
    if (!check.ok)
      return data<ActionData>({ result: replyWithErrors(submission, { [check.field]: check.error }), confirm: null }, { status: 400 });
    return data<ActionData>({
      result: submission.reply(),
      confirm: { from: check.from, to: check.to, amount: check.amount, balance: amount ?? "", requestId: v.request_id ?? null },
    });
  }
  const result = await myTransfer(context, user, transferCommandOf(v));
  if (!result.ok) return data<ActionData>({ result: replyWithErrors(submission, result.errors), confirm: null }, { status: result.status });
  const from = accountTypeOf(result.value.fromKind) ?? 1;
  const to = accountTypeOf(result.value.toKind) ?? 3;
  return redirectWithFlash(context, transferHref(from, to, "&done=1"), { kind: "success", message: "transfer.done" });
}

function AccountSelect({
  name,
  label,
  value,
  onChange,
  error,
  errorId,
}: {
  name: "from" | "to";
  label: string;
  value: AccountTypeId;
  onChange: (value: AccountTypeId) => void;
  error?: string;
  errorId: string;
}) {
  const { t } = useTranslation();
  const id = `transfer-${name}`;
  return (
    <div className={error ? "field has-error" : "field"}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e: ChangeEvent<HTMLSelectElement>) => onChange(accountTypeOf(e.currentTarget.value) ?? value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      >
        {WALLET_ACCOUNTS.map((a) => (
          <option key={a.accountTypeId} value={a.accountTypeId}>
            {t(`accounts.${a.kind}`)}
          </option>
        ))}
      </select>
      {error ? (
        <p className="field-error" id={errorId}>
          {translateMessage(t, error)}
        </p>
      ) : null}
    </div>
  );
}

function TransferForm({
  accounts,
  from,
  to,
  requestId,
  constraint,
  lastResult,
  locale,
}: {
  accounts: AccountView[];
  from: AccountTypeId;
  to: AccountTypeId;
  requestId: string;
  constraint: ReturnType<typeof useLoaderData<typeof loader>>["constraint"];
  lastResult: SubmissionResult<string[]> | undefined;
  locale: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [form, fields] = useForm<Record<"from" | "to" | "balance" | "request_id", string>>({
    id: "transfer",
    lastResult,
    constraint,
    defaultValue: { from: String(from), to: String(to) },
  });
  const initial = (value: unknown, fallback: AccountTypeId) => (typeof value === "string" ? (accountTypeOf(value) ?? fallback) : fallback);
  const [pair, setPair] = useState(() => ({ from: initial(fields.from.initialValue, from), to: initial(fields.to.initialValue, to) }));
  const available = accounts.find((a) => a.accountTypeId === pair.from)?.balance ?? 0;
  const swap = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    setPair((p) => ({ from: p.to, to: p.from }));
  };
  return (
    <Form method="post" className="form card" {...getFormProps(form)} noValidate={false}>
      <FormErrors form={form} />
      <div className="transfer-pair">
        <AccountSelect
          name="from"
          label={t("transfer.from")}
          value={pair.from}
          onChange={(v) => setPair((p) => pickAccount(p, "from", v))}
          error={fields.from.errors?.[0]}
          errorId={fields.from.errorId}
        />
        <Link to={transferHref(pair.to, pair.from)} className="swap-button" onClick={swap} aria-label={t("transfer.swap")} replace>
          <TransferIcon />
        </Link>
        <AccountSelect
          name="to"
          label={t("transfer.to")}
          value={pair.to}
          onChange={(v) => setPair((p) => pickAccount(p, "to", v))}
          error={fields.to.errors?.[0]}
          errorId={fields.to.errorId}
        />
      </div>
      <Field
        field={fields.balance}
        label={t("transfer.amount")}
        inputMode="decimal"
        autoComplete="off"
        hint={
          <span aria-live="polite">
            {t("transfer.amount_hint", {
              account: t(`accounts.${walletAccount(pair.from).kind}`),
              amount: formatBalance(available, locale),
            })}
          </span>
        }
      />
      <input type="hidden" name="request_id" value={requestId} />
      {/* "Continue" first: Enter in the amount field submits the form's first button */}
      <div className="tiles">
        <SubmitButton intent={Intent.TransferReview}>{t("transfer.next")}</SubmitButton>
        <SubmitButton intent={Intent.TransferAll} className="button">
          {t("transfer.all")}
        </SubmitButton>
      </div>
    </Form>
  );
}

function ConfirmTransfer({ confirm, locale }: { confirm: Confirm; locale: string }) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const fromName = t(`accounts.${walletAccount(confirm.from).kind}`);
  const toName = t(`accounts.${walletAccount(confirm.to).kind}`);
  return (
    <section className="card confirm-card" aria-labelledby="transfer-confirm-title">
      <h2 id="transfer-confirm-title" ref={heading} tabIndex={-1}>
        {t("transfer.confirm_title")}
      </h2>
      <p>
        {t("transfer.confirm_text", {
          amount: formatMoney(confirm.amount, locale, exactDecimals(confirm.amount)),
          from: fromName,
          to: toName,
        })}
      </p>
      <dl className="confirm-figures">
        <div>
          <dt>{t("transfer.from")}</dt>
          <dd>{fromName}</dd>
        </div>
        <div>
          <dt>{t("transfer.to")}</dt>
          <dd>{toName}</dd>
        </div>
        <div>
          <dt>{t("transfer.amount")}</dt>
          <dd>
            <Money value={confirm.amount} locale={locale} decimals={exactDecimals(confirm.amount)} />
          </dd>
        </div>
        <div>
          <dt>{t("transfer.fee")}</dt>
          <dd className="num">{t("transfer.no_fee")}</dd>
        </div>
      </dl>
      <Form method="post" className="tiles">
        <input type="hidden" name="from" value={confirm.from} />
        <input type="hidden" name="to" value={confirm.to} />
        <input type="hidden" name="balance" value={confirm.balance} />
        {confirm.requestId ? <input type="hidden" name="request_id" value={confirm.requestId} /> : null}
        <Link to={transferHref(confirm.from, confirm.to)} className="button" replace>
          {t("transfer.edit")}
        </Link>
        <SubmitButton intent={Intent.Transfer}>{t("transfer.confirm")}</SubmitButton>
      </Form>
    </section>
  );
}

/** Spec §9: the balances refresh 1 s after a transfer (the redirect already shows them; this re-reads them once more). */
function useRefreshAfterTransfer(done: boolean, requestId: string) {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => revalidate.current(), 1000);
    return () => clearTimeout(timer);
  }, [done, requestId]);
  return revalidator.state === "loading";
}

export default function TransferPage() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = useRootData()?.locale ?? "en-US";
  const refreshing = useRefreshAfterTransfer(d.done, d.requestId);
  const confirm = actionData?.confirm ?? null;
  return (
    <div className="page narrow">
      <PageHeader title={t("transfer.title")} back="/mine/wallet" />
      <section className="card" aria-labelledby="transfer-balances">
        <h2 id="transfer-balances" className="visually-hidden">
          {t("wallet.accounts_list")}
        </h2>
        <dl className="account-grid" aria-busy={refreshing || undefined}>
          {d.accounts.map((a) => (
            <div key={a.accountTypeId} data-account={a.kind}>
              <dt>{t(`accounts.${a.kind}`)}</dt>
              <dd className="num">
                <Balance value={a.balance} locale={locale} />
              </dd>
            </div>
          ))}
        </dl>
        <p className="muted small" role="status">
          {refreshing ? t("transfer.refreshing") : ""}
        </p>
      </section>
      {confirm ? (
        <ConfirmTransfer confirm={confirm} locale={locale} />
      ) : (
        <TransferForm
          key={`${d.from}|${d.to}|${d.requestId}`}
          accounts={d.accounts}
          from={d.from}
          to={d.to}
          requestId={d.requestId}
          constraint={d.constraint}
          lastResult={actionData?.result}
          locale={locale}
        />
      )}
      <section className="card" aria-labelledby="transfer-log">
        <h2 id="transfer-log">{t("transfer.log")}</h2>
        {d.log.transfers.length === 0 ? (
          <EmptyState title={t("transfer.log_empty")} />
        ) : (
          <ul className="ledger-list">
            {d.log.transfers.map((r) => (
              <li key={r.id}>
                <span className="ledger-title">
                  {t(`accounts.${r.fromKind}`)} → {t(`accounts.${r.toKind}`)}
                </span>
                <span className="ledger-amount">
                  <Money value={r.amount} locale={locale} decimals={exactDecimals(r.amount)} />
                </span>
                <span className="ledger-sub">
                  <OrderTime ms={r.createdAt} locale={locale} />
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pager
          page={d.log.page}
          lastPage={d.log.lastPage}
          href={(p) => transferHref(d.from, d.to, `&page=${p}`)}
          label={t("orders.pages")}
        />
      </section>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
