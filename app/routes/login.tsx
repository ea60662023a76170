import { readForm } from "~/lib/http.server";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormErrors, PasswordField, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { formToObject } from "~/lib/validation";
import { login } from "~/services/auth.server";
import { redirectWithFlash, safeRedirect, sessionSetCookie } from "~/services/web.server";

export async function loader({ context, request }: LoaderFunctionArgs) {
  const user = await context.user();
  if (user) throw redirect(safeRedirect(new URL(request.url).searchParams.get("from"), "/user"));
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = formToObject(await readForm(request));
  const result = await login(context, request, form);
  if (!result.ok) {
    return data({ errors: result.errors, values: { account: form.account ?? "" } }, { status: result.status ?? 400 });
  }
  return redirectWithFlash(
    context,
    safeRedirect(form.from, "/"),
    { kind: "success", message: "auth.login_success" },
    { "Set-Cookie": await sessionSetCookie(context, result.value.token) },
  );
}

export const meta: MetaFunction = () => [{ title: "Bourse" }];

export default function Login() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const from = params.get("from") ?? "";
  const errors = actionData?.errors;
  return (
    <div className="page narrow">
      <PageHeader title={t("auth.login_title")} back="/" />
      <div className="auth-intro">
        <h2>{t("auth.welcome")}</h2>
        <p className="muted">{t("auth.login_subtitle")}</p>
      </div>
      <Form method="post" className="form" noValidate={false}>
        <FormErrors errors={errors} />
        <input type="hidden" name="from" value={from} />
        <Field
          name="account"
          label={t("auth.email_label")}
          placeholder={t("auth.email_placeholder")}
          autoComplete="username"
          inputMode="email"
          required
          maxLength={254}
          defaultValue={actionData?.values.account}
          error={errors?.account}
        />
        <PasswordField name="password" label={t("auth.password")} autoComplete="current-password" required maxLength={128} error={errors?.password} />
        <div className="form-links">
          <Link to="/forgot">{t("auth.forgot_link")}</Link>
          <Link to="/register">{t("auth.register_link")}</Link>
        </div>
        <SubmitButton>{t("auth.login_button")}</SubmitButton>
      </Form>
      <Form method="post" action="/login/demo" className="demo-form">
        <input type="hidden" name="from" value={from} />
        <button type="submit" className="link-button">
          {t("auth.mock_login")}
        </button>
      </Form>
      <p className="muted small center">{t("auth.wallet_login_soon")}</p>
    </div>
  );
}
