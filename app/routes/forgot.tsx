/** Forgot password: reset by e-mail code (spec §2). The answer never says whether an account exists. */
import { getFormProps, useForm } from "@conform-to/react";
import { getValibotConstraint } from "@conform-to/valibot";
import { data, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { CodeField, Field, FormErrors, NewPasswordFields, useClearSecrets } from "~/components/fields";
import { DefaultSubmit, Notice, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { ForgotSchema, ResetCodeSchema } from "~/forms/auth";
import { Intent } from "~/forms/intents";
import { submissionOf } from "~/forms/parse";
import { checkedOnly, replyWithErrors } from "~/forms/reply";
import { readForm } from "~/lib/http.server";
import { resetPassword, sendResetCode } from "~/services/auth/passwords.server";
import { redirectWithFlash } from "~/services/web.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth"] };

const SECRETS = ["password", "re_password"];

export const meta = titled("auth.forgot_title");

export const loader = () => ({ constraint: getValibotConstraint(ForgotSchema) });

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  switch (form.get("intent")) {
    case Intent.SendCode: {
      const submission = submissionOf(ResetCodeSchema, form);
      if (submission.status !== "success")
        return data(
          { result: checkedOnly(submission.reply({ hideFields: SECRETS }), ["account"]), codeSeconds: 0, notice: null },
          { status: 400 },
        );
      const sent = await sendResetCode(context, submission.value);
      if (!sent.ok)
        return data(
          {
            result: checkedOnly(replyWithErrors(submission, sent.errors, SECRETS), ["account", "sms_code", "auth_code"]),
            codeSeconds: 0,
            notice: null,
          },
          { status: sent.status },
        );
      return data({
        result: checkedOnly(submission.reply({ hideFields: SECRETS }), ["account"]),
        codeSeconds: sent.value.seconds,
        notice: "auth.reset_code_sent",
      });
    }
    case Intent.Reset: {
      const submission = submissionOf(ForgotSchema, form);
      if (submission.status !== "success")
        return data({ result: submission.reply({ hideFields: SECRETS }), codeSeconds: 0, notice: null }, { status: 400 });
      const result = await resetPassword(context, submission.value);
      if (!result.ok)
        return data(
          { result: replyWithErrors(submission, result.errors, SECRETS), codeSeconds: 0, notice: null },
          { status: result.status },
        );
      return redirectWithFlash(context, "/login", { kind: "success", message: "auth.password_changed" });
    }
    default:
      return data(
        { result: { status: "error" as const, error: { "": ["errors.bad_request"] } }, codeSeconds: 0, notice: null },
        { status: 400 },
      );
  }
}

export default function Forgot() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const loaderData = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "forgot",
    lastResult: actionData?.result,
    constraint: loaderData.constraint,
  });
  useClearSecrets(form, actionData?.result, ["password", "re_password"]);
  return (
    <div className="page narrow">
      <PageHeader title={t("auth.forgot_title")} back="/login" />
      <Form method="post" className="form" {...getFormProps(form)} noValidate={false}>
        <DefaultSubmit intent={Intent.Reset} />
        <FormErrors form={form} />
        <Notice message={actionData?.notice} />
        <Field field={fields.account} label={t("auth.email")} type="email" inputMode="email" autoComplete="email" />
        <CodeField field={fields.auth_code} secondsLeft={actionData?.codeSeconds ?? 0} />
        <NewPasswordFields password={fields.password} confirm={fields.re_password} />
        <SubmitButton intent={Intent.Reset}>{t("auth.reset_button")}</SubmitButton>
        <p className="center small">
          <Link to="/login">{t("auth.back_to_login")}</Link>
        </p>
      </Form>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
