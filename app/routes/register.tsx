/**
 * Register (spec §2): by e-mail or mobile (area picker '+code', default the second entry), a
 * verification code with a 60 s send button, or a picture captcha when verify_reg_type is 2;
 * password, confirmation, optional invite code.
 */
import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { getValibotConstraint } from "@conform-to/valibot";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { CaptchaField, CodeField, Field, FormErrors, NewPasswordFields, useClearSecrets } from "~/components/fields";
import { DefaultSubmit, Notice, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { RegisterSchema, SendCodeSchema } from "~/forms/auth";
import { Intent } from "~/forms/intents";
import { submissionOf } from "~/forms/parse";
import { checkedOnly, replyWithErrors } from "~/forms/reply";
import { readForm } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { areaList } from "~/services/account.server";
import { verifyRegType } from "~/services/auth/accounts.server";
import { register, sendRegisterCode } from "~/services/auth/sign-in.server";
import { createCaptcha } from "~/services/codes.server";
import { SanctionsNotice } from "~/components/notice";
import { browserDevice } from "~/services/auth/devices.server";
import { accountHome, redirectWithFlash, signedInCookies } from "~/services/web.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "mail"] };

type RegType = "email" | "mobile";
const DEFAULT_AREA_INDEX = 1; // the spec's default: the second entry of the area list
const SECRETS = ["password", "re_password", "captcha", "key"];
/** The fields that sending a code checks. */
const SEND_FIELDS = ["type", "account", "area_id"];

export const meta = titled("auth.register_title", { description: "auth.register_meta_description" });

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await context.user()) throw redirect(accountHome(context));
  const url = new URL(request.url);
  const type: RegType = url.searchParams.get("type") === "mobile" ? "mobile" : "email";
  const verifyType = await verifyRegType(context);
  const [areas, captcha] = await Promise.all([areaList(context), verifyType === 2 ? createCaptcha(context.d1) : null]);
  return {
    type,
    areas: areas.map((a) => ({ id: a.id, globalCode: a.global_code, name: a.name })),
    defaultAreaId: areas[DEFAULT_AREA_INDEX]?.id ?? areas[0]?.id ?? 1,
    captcha,
    inviteCode: (url.searchParams.get("invite_code") ?? "").slice(0, 16),
    // The schema's native constraints, made on the server (valibot stays out of the page's JavaScript).
    constraint: getValibotConstraint(RegisterSchema),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  switch (form.get("intent")) {
    case Intent.SendCode: {
      const submission = submissionOf(SendCodeSchema, form);
      if (submission.status !== "success")
        return data(
          { result: checkedOnly(submission.reply({ hideFields: SECRETS }), SEND_FIELDS), codeSeconds: 0, captcha: null, notice: null },
          { status: 400 },
        );
      const sent = await sendRegisterCode(context, submission.value);
      if (!sent.ok)
        return data(
          {
            result: checkedOnly(replyWithErrors(submission, sent.errors, SECRETS), [...SEND_FIELDS, "sms_code"]),
            codeSeconds: 0,
            captcha: null,
            notice: null,
          },
          { status: sent.status },
        );
      return data({
        result: checkedOnly(submission.reply({ hideFields: SECRETS }), SEND_FIELDS),
        codeSeconds: sent.value.seconds,
        captcha: null,
        notice: "auth.code_sent",
      });
    }
    case Intent.Register: {
      const submission = submissionOf(RegisterSchema, form);
      const fresh = async () => ((await verifyRegType(context)) === 2 ? createCaptcha(context.d1) : null); // a captcha is single use
      if (submission.status !== "success")
        return data(
          { result: submission.reply({ hideFields: SECRETS }), codeSeconds: 0, captcha: await fresh(), notice: null },
          { status: 400 },
        );
      const device = await browserDevice(request);
      const result = await register(context, submission.value, device);
      if (!result.ok)
        return data(
          { result: replyWithErrors(submission, result.errors, SECRETS), codeSeconds: 0, captcha: await fresh(), notice: null },
          { status: result.status },
        );
      return redirectWithFlash(
        context,
        "/",
        { kind: "success", message: "auth.register_success" },
        await signedInCookies(context, result.value.token, device),
      );
    }
    default:
      return data(
        { result: { status: "error" as const, error: { "": ["errors.bad_request"] } }, codeSeconds: 0, captcha: null, notice: null },
        { status: 400 },
      );
  }
}

export default function Register() {
  const { t } = useTranslation();
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const type = loaderData.type;
  const captcha = actionData?.captcha ?? loaderData.captcha;
  const [form, fields] = useForm<
    Record<"type" | "area_id" | "account" | "sms_code" | "captcha" | "password" | "re_password" | "invite_code", string>
  >({
    id: `register-${type}`,
    lastResult: actionData?.result,
    constraint: loaderData.constraint,
    defaultValue: { type, area_id: String(loaderData.defaultAreaId), invite_code: loaderData.inviteCode },
  });
  useClearSecrets(form, actionData?.result, ["password", "re_password", "captcha"]);
  const inviteQuery = params.get("invite_code") ? `&invite_code=${encodeURIComponent(params.get("invite_code")!)}` : "";
  const f = fields;
  const areaError = f.area_id.errors?.[0];
  return (
    <div className="page narrow">
      <PageHeader title={t("auth.register_title")} back="/login" />
      <nav className="segmented" aria-label={t("auth.register_type")}>
        <Link
          to={`?type=email${inviteQuery}`}
          replace
          aria-current={type === "email" ? "page" : undefined}
          className={type === "email" ? "active" : ""}
        >
          {t("auth.by_email")}
        </Link>
        <Link
          to={`?type=mobile${inviteQuery}`}
          replace
          aria-current={type === "mobile" ? "page" : undefined}
          className={type === "mobile" ? "active" : ""}
        >
          {t("auth.by_mobile")}
        </Link>
      </nav>
      <Form method="post" className="form" {...getFormProps(form)} noValidate={false}>
        <FormErrors form={form} />
        <Notice message={actionData?.notice} />
        <input type="hidden" name="type" value={type} />
        <DefaultSubmit intent={Intent.Register} />
        {type === "mobile" ? (
          <div className={areaError ? "field has-error" : "field"}>
            <label htmlFor={f.area_id.id}>{t("auth.area_code")}</label>
            <select {...getSelectProps(f.area_id)} key={f.area_id.key}>
              {loaderData.areas.map((a) => (
                <option key={a.id} value={a.id}>
                  {`+${a.globalCode} ${a.name}`}
                </option>
              ))}
            </select>
            {areaError ? (
              <p className="field-error" id={f.area_id.errorId}>
                {translateMessage(t, areaError)}
              </p>
            ) : null}
          </div>
        ) : null}
        <Field
          field={f.account}
          label={type === "email" ? t("auth.email") : t("auth.mobile")}
          type={type === "email" ? "email" : "tel"}
          inputMode={type === "email" ? "email" : "tel"}
          autoComplete={type === "email" ? "email" : "tel-national"}
          placeholder={type === "email" ? t("auth.email_placeholder") : t("auth.mobile_placeholder")}
        />
        {captcha ? (
          <CaptchaField captcha={captcha} field={f.captcha} refreshTo={`?type=${type}${inviteQuery}`} />
        ) : (
          <CodeField field={f.sms_code} secondsLeft={actionData?.codeSeconds ?? 0} />
        )}
        <NewPasswordFields password={f.password} confirm={f.re_password} label={t("auth.password")} />
        <Field field={f.invite_code} label={t("auth.invite_code")} autoComplete="off" />
        <SubmitButton intent={Intent.Register}>{t("auth.register_button")}</SubmitButton>
        <p className="center small">
          {t("auth.have_account")} <Link to="/login">{t("auth.login_link")}</Link>
        </p>
      </Form>
      <SanctionsNotice />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
