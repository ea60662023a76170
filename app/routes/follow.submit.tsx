/**
 * Follow settings (spec §2 Follow submit, §7 follow_trader; issue 11 §1). Until the user has
 * agreed to the copy-trading guide (a cookie remembers it), the guide with an agree box and a
 * confirm button shows first; the server refuses it unticked. Then the form: the trader's
 * summary, the multiple (digits) with the echo line 'auto follow: {multiple}', the maximum follow
 * bond in USD (at most the contract balance), follow now. A double-submitted form follows once
 * (the unique live follow). On success: the server's message, back to the trader's detail.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { getValibotConstraint } from "@conform-to/valibot";
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "~/i18n/react";
import { Rate, TraderAvatar } from "~/components/copy";
import { Field, FormErrors } from "~/components/fields";
import { SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { Balance } from "~/components/money";
import { RouteErrorBoundary } from "~/components/route-error";
import { FollowSchema } from "~/forms/copy";
import { Intent } from "~/forms/intents";
import { submissionOf } from "~/forms/parse";
import { replyWithErrors } from "~/forms/reply";
import { readForm } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { useRootData } from "~/lib/root-data";
import { contractAvailable, copyGuideCookie as guideCookie, followTrader } from "~/services/copy/follows.server";
import { liveFollow, traderOf } from "~/services/copy/queries.server";
import { redirectWithFlash, requireUser } from "~/services/web.server";
import copyStylesHref from "~/styles/copy.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "home"] };

export const meta = titled("copy.submit_title");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: copyStylesHref }];

const GUIDE = ["copy.guide_1", "copy.guide_2", "copy.guide_3"];
const ID = /^\d{1,15}$/;

function traderIdOf(request: Request): number {
  const id = new URL(request.url).searchParams.get("id") ?? "";
  if (!ID.test(id)) throw new Response("Not Found", { status: 404 });
  return Number(id);
}

async function guideAgreed(request: Request) {
  return (await guideCookie.parse(request.headers.get("cookie"))) === "1";
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const traderId = traderIdOf(request);
  const [trader, existing, balance] = await Promise.all([
    traderOf(context, traderId),
    liveFollow(context, user.id, traderId),
    contractAvailable(context, user.id),
  ]);
  if (!trader) throw new Response("Not Found", { status: 404 });
  // already followed: the detail shows the follow (the follow button only shows when not followed)
  if (existing) throw redirect(`/follow/trader?id=${traderId}`);
  return {
    trader,
    self: traderId === user.id,
    demo: user.isDemo,
    balance,
    agreed: await guideAgreed(request),
    requestId: crypto.randomUUID(),
    constraint: getValibotConstraint(FollowSchema),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const traderId = traderIdOf(request);
  const form = await readForm(request);
  switch (form.get("intent")) {
    case Intent.Preview: {
      // the guide: agreeing reveals the form
      if (form.get("agree") !== "on")
        return data({ guideError: "copy.agree_required" as string | null, result: undefined }, { status: 400 });
      return redirect(`/follow/submit?id=${traderId}`, { headers: { "Set-Cookie": await guideCookie.serialize("1") } });
    }
    case Intent.Follow: {
      form.set("trader_id", String(traderId));
      const submission = submissionOf(FollowSchema, form);
      if (submission.status !== "success") return data({ guideError: null, result: submission.reply() }, { status: 400 });
      const result = await followTrader(context, user, submission.value);
      // following twice (another tab, a double submit): the trader's page shows the follow, with why
      if (!result.ok && result.errors.trader_id === "copy.already_following")
        return redirectWithFlash(context, `/follow/trader?id=${traderId}`, { kind: "error", message: "copy.already_following" });
      if (!result.ok) return data({ guideError: null, result: replyWithErrors(submission, result.errors) }, { status: result.status });
      return redirectWithFlash(context, `/follow/trader?id=${traderId}`, { kind: "success", message: "copy.followed" });
    }
    default:
      return data({ guideError: "errors.bad_request" as string | null, result: undefined }, { status: 400 });
  }
}

export default function FollowSubmit() {
  const { t } = useTranslation();
  const { trader, agreed, self, demo } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  return (
    <div className="page narrow">
      <PageHeader title={t("copy.submit_title")} back={`/follow/trader?id=${trader.userId}`} />
      <section className="card copy-card" aria-labelledby="submit-trader">
        <div className="copy-card-head">
          <TraderAvatar src={trader.avatar} name={trader.nickname} />
          <div className="copy-card-name">
            <h2 id="submit-trader">{trader.nickname}</h2>
            <span className="muted small">
              {t("copy.three_week_rate")} <Rate value={trader.threeWeekRate} /> · {t("copy.followers")}:{" "}
              <span className="num">{trader.followNum}</span>
            </span>
          </div>
        </div>
      </section>
      {self ? (
        <p className="notice warn">{translateMessage(t, "copy.not_self")}</p>
      ) : demo ? (
        <p className="notice warn">{t("errors.only_real_account")}</p>
      ) : trader.status === 0 ? (
        <p className="notice warn">{t("copy.suspended_notice", { reason: trader.suspendedReason })}</p>
      ) : agreed ? (
        <FollowForm locale={locale} />
      ) : (
        <Guide />
      )}
    </div>
  );
}

function Guide() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const error = actionData?.guideError;
  return (
    <Form method="post" className="form card">
      <h2>{t("copy.guide_title")}</h2>
      <ul className="apply-docs">
        {GUIDE.map((key) => (
          <li key={key}>{t(key)}</li>
        ))}
      </ul>
      {error ? (
        <div className="form-errors" role="alert">
          {translateMessage(t, error)}
        </div>
      ) : null}
      <label className="check-label">
        <input type="checkbox" name="agree" aria-invalid={error ? true : undefined} /> {t("copy.guide_agree")}
      </label>
      <SubmitButton intent={Intent.Preview}>{t("copy.guide_confirm")}</SubmitButton>
    </Form>
  );
}

function FollowForm({ locale }: { locale: string }) {
  const { t } = useTranslation();
  const { balance, requestId, constraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({ id: "follow-trader", lastResult: actionData?.result, constraint, shouldRevalidate: "onBlur" });
  const [multiple, setMultiple] = useState<string>(String(fields.multiple.initialValue ?? ""));
  const echo = /^\d{1,3}$/.test(multiple.trim()) ? multiple.trim() : "—";
  return (
    <Form method="post" className="form card" {...getFormProps(form)}>
      <FormErrors form={form} />
      <input type="hidden" name="request_id" value={requestId} />
      <Field
        field={fields.multiple}
        label={t("copy.multiple")}
        inputMode="numeric"
        pattern="[0-9]*"
        maxLength={32}
        autoComplete="off"
        hint={t("copy.multiple_hint")}
        onInput={(e: FormEvent<HTMLInputElement>) => setMultiple(e.currentTarget.value)}
      />
      <p className="copy-echo num" aria-live="polite">
        {t("copy.auto_follow", { multiple: echo })}
      </p>
      <Field
        field={fields.max_amount}
        label={t("copy.max_bond")}
        inputMode="decimal"
        maxLength={32}
        autoComplete="off"
        hint={t("copy.max_bond_hint")}
      />
      <p className="muted small">
        {t("copy.contract_balance")} <Balance value={balance} locale={locale} /> USD
      </p>
      <SubmitButton intent={Intent.Follow}>{t("copy.follow_now")}</SubmitButton>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
