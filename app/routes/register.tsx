import { readForm } from "~/lib/http.server";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CodeButton, DefaultSubmit, Field, FormErrors, Notice, PasswordField, SubmitButton } from "~/components/forms";
import { PageHeader } from "~/components/layout";
import { formToObject, type FieldErrors } from "~/lib/validation";
import { areaList } from "~/services/account.server";
import { register, sendCode, verifyRegType } from "~/services/auth.server";
import { createCaptcha } from "~/services/codes.server";
import { redirectWithFlash, sessionSetCookie } from "~/services/web.server";

type RegType = "email" | "mobile";
const DEFAULT_AREA_INDEX = 1; // the spec's default: the second entry of the area list

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await context.user()) throw redirect("/user");
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
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = formToObject(await readForm(request));
  const values = {
    type: form.type === "mobile" ? "mobile" : "email",
    account: form.account ?? "",
    area_id: form.area_id ?? "",
    invite_code: form.invite_code ?? "",
    sms_code: form.sms_code ?? "",
  };
  if (form.intent === "send-code") {
    const sent = await sendCode(context, request, { type: values.type, account: values.account, area_id: values.area_id });
    if (!sent.ok) return data({ errors: sent.errors, values, codeSeconds: 0, captcha: null }, { status: sent.status ?? 400 });
    return data({ errors: undefined, values, codeSeconds: sent.value.seconds, captcha: null, notice: "auth.code_sent" });
  }
  if (form.intent !== "register") {
    const errors: FieldErrors = { form: "errors.bad_request" };
    return data({ errors, values, codeSeconds: 0, captcha: null }, { status: 400 });
  }
  const result = await register(context, request, form);
  if (!result.ok) {
    // A used or wrong captcha is single use: show a fresh one.
    const captcha = (await verifyRegType(context)) === 2 ? await createCaptcha(context.d1) : null;
    return data({ errors: result.errors, values, codeSeconds: 0, captcha }, { status: result.status ?? 400 });
  }
  return redirectWithFlash(context, "/", { kind: "success", message: "auth.register_success" }, { "Set-Cookie": await sessionSetCookie(context, result.value.token) });
}

export default function Register() {
  const { t } = useTranslation();
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const type = (actionData?.values.type as RegType | undefined) ?? loaderData.type;
  const errors = actionData?.errors;
  const captcha = actionData?.captcha ?? loaderData.captcha;
  const values = actionData?.values;
  const notice = actionData && "notice" in actionData ? actionData.notice : undefined;
  const inviteQuery = params.get("invite_code") ? `&invite_code=${encodeURIComponent(params.get("invite_code")!)}` : "";
  return (
    <div className="page narrow">
      <PageHeader title={t("auth.register_title")} back="/login" />
      <nav className="segmented" aria-label={t("auth.register_type")}>
        <Link to={`?type=email${inviteQuery}`} replace aria-current={type === "email" ? "page" : undefined} className={type === "email" ? "active" : ""}>
          {t("auth.by_email")}
        </Link>
        <Link to={`?type=mobile${inviteQuery}`} replace aria-current={type === "mobile" ? "page" : undefined} className={type === "mobile" ? "active" : ""}>
          {t("auth.by_mobile")}
        </Link>
      </nav>
      <Form method="post" className="form" key={type}>
        <FormErrors errors={errors} />
        <Notice message={notice} />
        <input type="hidden" name="type" value={type} />
        <DefaultSubmit intent="register" />
        {type === "mobile" ? (
          <div className="field">
            <label htmlFor="area_id">{t("auth.area_code")}</label>
            <select id="area_id" name="area_id" defaultValue={values?.area_id || String(loaderData.defaultAreaId)}>
              {loaderData.areas.map((a) => (
                <option key={a.id} value={a.id}>
                  {`+${a.globalCode} ${a.name}`}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <Field
          name="account"
          label={type === "email" ? t("auth.email") : t("auth.mobile")}
          type={type === "email" ? "email" : "tel"}
          inputMode={type === "email" ? "email" : "numeric"}
          autoComplete={type === "email" ? "email" : "tel-national"}
          placeholder={type === "email" ? t("auth.email_placeholder") : t("auth.mobile_placeholder")}
          required
          maxLength={type === "email" ? 254 : 15}
          defaultValue={values?.account}
          error={errors?.account ?? errors?.area_id}
        />
        {captcha ? (
          <div className="field">
            <label htmlFor="captcha">{t("auth.captcha")}</label>
            <div className="input-row">
              <input id="captcha" name="captcha" required maxLength={6} autoComplete="off" autoCapitalize="characters" aria-invalid={errors?.captcha ? true : undefined} />
              <img className="captcha" src={captcha.b64s} alt={t("auth.captcha_alt")} width={150} height={50} />
            </div>
            <input type="hidden" name="key" value={captcha.id} />
            <Link to={`?type=${type}${inviteQuery}`} reloadDocument className="small">
              {t("auth.captcha_refresh")}
            </Link>
            {errors?.captcha ? <p className="field-error">{t(errors.captcha)}</p> : null}
          </div>
        ) : (
          <Field
            name="sms_code"
            label={t("auth.code")}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="\d{6}"
            maxLength={6}
            defaultValue={values?.sms_code}
            error={errors?.sms_code}
            addon={<CodeButton secondsLeft={actionData?.codeSeconds ?? 0} />}
          />
        )}
        <PasswordField name="password" label={t("auth.password")} hint={t("auth.password_hint")} autoComplete="new-password" required minLength={8} maxLength={128} error={errors?.password} />
        <PasswordField name="re_password" label={t("auth.confirm_password")} autoComplete="new-password" required maxLength={128} error={errors?.re_password} />
        <Field name="invite_code" label={t("auth.invite_code")} maxLength={16} autoComplete="off" defaultValue={values?.invite_code ?? loaderData.inviteCode} error={errors?.invite_code} />
        <SubmitButton intent="register">{t("auth.register_button")}</SubmitButton>
        <p className="center small">
          {t("auth.have_account")} <Link to="/login">{t("auth.login_link")}</Link>
        </p>
      </Form>
    </div>
  );
}
