/** Forgot password: reset by e-mail code (spec §2). The answer never says whether an account exists. */
import { readForm } from "~/lib/http.server";
import { data, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CodeButton, DefaultSubmit, Field, FormErrors, Notice, PasswordField, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { formToObject } from "~/lib/validation";
import { resetPassword, sendResetCode } from "~/services/auth.server";
import { redirectWithFlash } from "~/services/web.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = formToObject(await readForm(request));
  const values = { account: form.account ?? "", auth_code: form.auth_code ?? "" };
  if (form.intent === "send-code") {
    const sent = await sendResetCode(context, request, { account: values.account });
    if (!sent.ok) return data({ errors: sent.errors, values, codeSeconds: 0, notice: null }, { status: sent.status ?? 400 });
    return data({ errors: undefined, values, codeSeconds: sent.value.seconds, notice: "auth.reset_code_sent" });
  }
  const result = await resetPassword(context, form);
  if (!result.ok) return data({ errors: result.errors, values, codeSeconds: 0, notice: null }, { status: result.status ?? 400 });
  return redirectWithFlash(context, "/login", { kind: "success", message: "auth.password_changed" });
}

export default function Forgot() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const errors = actionData?.errors;
  return (
    <div className="page narrow">
      <PageHeader title={t("auth.forgot_title")} back="/login" />
      <Form method="post" className="form">
        <DefaultSubmit intent="reset" />
        <FormErrors errors={errors} />
        <Notice message={actionData?.notice} />
        <Field name="account" label={t("auth.email")} type="email" inputMode="email" autoComplete="email" required maxLength={254} defaultValue={actionData?.values.account} error={errors?.account} />
        <Field
          name="auth_code"
          label={t("auth.code")}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          pattern="\d{6}"
          defaultValue={actionData?.values.auth_code}
          error={errors?.auth_code ?? errors?.sms_code}
          addon={<CodeButton secondsLeft={actionData?.codeSeconds ?? 0} />}
        />
        <PasswordField name="password" label={t("auth.new_password")} hint={t("auth.password_hint")} autoComplete="new-password" minLength={8} maxLength={128} error={errors?.password} />
        <PasswordField name="re_password" label={t("auth.confirm_password")} autoComplete="new-password" maxLength={128} error={errors?.re_password} />
        <SubmitButton intent="reset">{t("auth.reset_button")}</SubmitButton>
        <p className="center small">
          <Link to="/login">{t("auth.back_to_login")}</Link>
        </p>
      </Form>
    </div>
  );
}
