/** Password reset for a signed-in user (spec §2 /mine/password, §5): demo users are refused. */
import { getFormProps, useForm } from "@conform-to/react";
import { getValibotConstraint } from "@conform-to/valibot";
import * as v from "valibot";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { CodeField, FormErrors, NewPasswordFields, PasswordField, useClearSecrets } from "~/components/fields";
import { DefaultSubmit, Notice, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { AmendSchema } from "~/forms/auth";
import { Intent } from "~/forms/intents";
import { submissionOf } from "~/forms/parse";
import { checkedOnly, replyWithErrors } from "~/forms/reply";
import { readForm } from "~/lib/http.server";
import { amendPassword, sendAmendCode } from "~/services/auth/passwords.server";
import { redirectWithFlash, requireRealUser, sessionSetCookie } from "~/services/web.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "user"] };

const SECRETS = ["old_password", "password", "re_password"];
/** Sending a code checks no field. */
const SendOnly = v.object({});

export const meta = titled("user.reset_password");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  return { contact: user.email ?? user.mobile ?? "", constraint: getValibotConstraint(AmendSchema) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRealUser(context, request);
  const form = await readForm(request);
  switch (form.get("intent")) {
    case Intent.SendCode: {
      const submission = submissionOf(SendOnly, form);
      const sent = await sendAmendCode(context, user);
      if (!sent.ok)
        return data(
          {
            result: checkedOnly(replyWithErrors(submission, sent.errors, SECRETS), ["sms_code", "auth_code"]),
            codeSeconds: 0,
            notice: null,
          },
          { status: sent.status },
        );
      return data({
        result: checkedOnly(submission.reply({ hideFields: SECRETS }), []),
        codeSeconds: sent.value.seconds,
        notice: "auth.code_sent",
      });
    }
    case Intent.Amend: {
      const submission = submissionOf(AmendSchema, form);
      if (submission.status !== "success")
        return data({ result: submission.reply({ hideFields: SECRETS }), codeSeconds: 0, notice: null }, { status: 400 });
      const result = await amendPassword(context, user, submission.value);
      if (!result.ok)
        return data(
          { result: replyWithErrors(submission, result.errors, SECRETS), codeSeconds: 0, notice: null },
          { status: result.status },
        );
      return redirectWithFlash(
        context,
        "/user",
        { kind: "success", message: "auth.password_changed" },
        { "Set-Cookie": await sessionSetCookie(context, result.value.token) },
      );
    }
    default:
      return data(
        { result: { status: "error" as const, error: { "": ["errors.bad_request"] } }, codeSeconds: 0, notice: null },
        { status: 400 },
      );
  }
}

export default function MinePassword() {
  const { t } = useTranslation();
  const loaderData = useLoaderData<typeof loader>();
  const { contact } = loaderData;
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "amend",
    lastResult: actionData?.result,
    constraint: loaderData.constraint,
  });
  useClearSecrets(form, actionData?.result, SECRETS);
  return (
    <div className="page narrow">
      <PageHeader title={t("user.reset_password")} back="/user" />
      <Form method="post" className="form" {...getFormProps(form)} noValidate={false}>
        <DefaultSubmit intent={Intent.Amend} />
        <FormErrors form={form} />
        <Notice message={actionData?.notice} />
        <PasswordField field={fields.old_password} label={t("auth.old_password")} autoComplete="current-password" />
        <p className="muted">{t("auth.code_goes_to", { contact })}</p>
        <CodeField field={fields.auth_code} secondsLeft={actionData?.codeSeconds ?? 0} />
        <NewPasswordFields password={fields.password} confirm={fields.re_password} />
        <SubmitButton intent={Intent.Amend}>{t("common.confirm")}</SubmitButton>
      </Form>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
