/** Password reset for a signed-in user (spec §2 /mine/password, §5): demo users are refused. */
import { readForm } from "~/lib/http.server";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CodeButton, DefaultSubmit, Field, FormErrors, Notice, PasswordField, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { formToObject } from "~/lib/validation";
import { amendPassword, sendAmendCode } from "~/services/auth.server";
import { redirectWithFlash, requireRealUser, sessionSetCookie } from "~/services/web.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  return { contact: user.email ?? (user.mobile ? `+${user.mobile}` : "") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRealUser(context, request);
  const form = formToObject(await readForm(request));
  if (form.intent === "send-code") {
    const sent = await sendAmendCode(context, request, user);
    if (!sent.ok) return data({ errors: sent.errors, codeSeconds: 0, notice: null }, { status: sent.status ?? 400 });
    return data({ errors: undefined, codeSeconds: sent.value.seconds, notice: "auth.code_sent" });
  }
  const result = await amendPassword(context, request, user, form);
  if (!result.ok) return data({ errors: result.errors, codeSeconds: 0, notice: null }, { status: result.status ?? 400 });
  return redirectWithFlash(context, "/user", { kind: "success", message: "auth.password_changed" }, { "Set-Cookie": await sessionSetCookie(context, result.value.token) });
}

export default function MinePassword() {
  const { t } = useTranslation();
  const { contact } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const errors = actionData?.errors;
  return (
    <div className="page narrow">
      <PageHeader title={t("user.reset_password")} back="/user" />
      <Form method="post" className="form">
        <DefaultSubmit intent="amend" />
        <FormErrors errors={errors} />
        <Notice message={actionData?.notice} />
        <p className="muted">{t("auth.code_goes_to", { contact })}</p>
        <Field
          name="auth_code"
          label={t("auth.code")}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          pattern="\d{6}"
          error={errors?.auth_code ?? errors?.sms_code}
          addon={<CodeButton secondsLeft={actionData?.codeSeconds ?? 0} />}
        />
        <PasswordField name="password" label={t("auth.new_password")} hint={t("auth.password_hint")} autoComplete="new-password" maxLength={128} error={errors?.password} />
        <PasswordField name="re_password" label={t("auth.confirm_password")} autoComplete="new-password" maxLength={128} error={errors?.re_password} />
        <SubmitButton intent="amend">{t("common.confirm")}</SubmitButton>
      </Form>
    </div>
  );
}
