/**
 * Login (spec §2): account and password, links to register and forgot, the demo account. After a
 * few failed attempts on an account the form asks for a picture captcha as well (never a lock).
 */
import { getFormProps, useForm } from "@conform-to/react";
import { getValibotConstraint } from "@conform-to/valibot";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { useServes } from "~/lib/root-data";
import { CaptchaField, Field, FormErrors, PasswordField, useClearSecrets } from "~/components/fields";
import { SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { LoginSchema } from "~/forms/auth";
import { Intent } from "~/forms/intents";
import { submissionOf } from "~/forms/parse";
import { replyWithErrors } from "~/forms/reply";
import { readForm } from "~/lib/http.server";
import { safeRedirect } from "~/lib/redirect";
import { login } from "~/services/auth/sign-in.server";
import { createCaptcha } from "~/services/codes.server";
import { browserDevice } from "~/services/auth/devices.server";
import { accountHome, redirectWithFlash, signedInCookies } from "~/services/web.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "mail", "web3"] };

export const meta = titled("auth.login_title", { description: "auth.login_meta_description" });

export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = await context.user();
  const url = new URL(request.url);
  if (user) throw redirect(safeRedirect(url.searchParams.get("from"), accountHome(context)));
  // "Show another picture" comes back here with captcha=1.
  return {
    captcha: url.searchParams.get("captcha") === "1" ? await createCaptcha(context.d1) : null,
    constraint: getValibotConstraint(LoginSchema),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const submission = submissionOf(LoginSchema, form);
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password", "captcha", "key"] }), captcha: null }, { status: 400 });
  }
  const device = await browserDevice(request);
  const result = await login(context, submission.value, device);
  if (!result.ok) {
    const captcha = result.captchaRequired ? await createCaptcha(context.d1) : null;
    return data({ result: replyWithErrors(submission, result.errors, ["password", "captcha", "key"]), captcha }, { status: result.status });
  }
  return redirectWithFlash(
    context,
    safeRedirect(form.get("from"), "/"),
    { kind: "success", message: "auth.login_success" },
    await signedInCookies(context, result.value.token, device),
  );
}

export default function Login() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const loaderData = useLoaderData<typeof loader>();
  const captcha = actionData?.captcha ?? loaderData.captcha;
  const [params] = useSearchParams();
  const from = params.get("from") ?? "";
  const served = useServes();
  const [form, fields] = useForm({
    id: "login",
    lastResult: actionData?.result,
    constraint: loaderData.constraint,
  });
  useClearSecrets(form, actionData?.result, ["password", "captcha"]);
  return (
    <div className="page narrow">
      <PageHeader title={t("auth.login_title")} back="/" />
      <div className="auth-intro">
        <h2>{t("auth.welcome")}</h2>
        <p className="muted">{t("auth.login_subtitle")}</p>
      </div>
      <Form method="post" className="form" {...getFormProps(form)} noValidate={false}>
        <FormErrors form={form} />
        <input type="hidden" name="from" value={from} />
        <Field
          field={fields.account}
          label={t("auth.email_label")}
          placeholder={t("auth.email_placeholder")}
          autoComplete="username"
          inputMode="email"
        />
        <PasswordField field={fields.password} label={t("auth.password")} autoComplete="current-password" />
        {captcha ? (
          <CaptchaField
            captcha={captcha}
            field={fields.captcha}
            refreshTo={`/login?captcha=1${from ? `&from=${encodeURIComponent(from)}` : ""}`}
          />
        ) : null}
        <div className="form-links">
          {served("/forgot") ? <Link to="/forgot">{t("auth.forgot_link")}</Link> : null}
          {served("/register") ? <Link to="/register">{t("auth.register_link")}</Link> : null}
        </div>
        <SubmitButton intent={Intent.Login}>{t("auth.login_button")}</SubmitButton>
      </Form>
      {served("/login/demo") ? (
        <Form method="post" action="/login/demo" className="demo-form">
          <input type="hidden" name="from" value={from} />
          <button type="submit" className="link-button">
            {t("auth.mock_login")}
          </button>
        </Form>
      ) : null}
      {served("/user/web3-login") ? (
        <p className="center">
          <Link to={`/user/web3-login${from ? `?from=${encodeURIComponent(from)}` : ""}`} className="button wide">
            {t("web3.login_link")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
