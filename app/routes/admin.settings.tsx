/**
 * The operator's site settings: the support chat (embedded frame, dialog with the link, or the
 * link itself), the contact e-mail users see, whether the site is open (closing turns every
 * visitor to the loss URL or a closed page, so it asks for a confirmation and a fresh step-up;
 * operators keep working either way) and the demo account's starting balances. Each section is
 * its own plain form: works without JavaScript; a refused save keeps what was typed. Non-operators
 * get 404.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { ErrorSummary, PlainField, SubmitButton } from "~/components/forms";
import { RouteErrorBoundary } from "~/components/route-error";
import { ServiceLinkType } from "~/domain/content";
import { toDecimalString } from "~/domain/money";
import { DEMO_BALANCE_MAX_USD, SETTINGS_LINK_MAX } from "~/domain/settings";
import { CompanyStatus } from "~/domain/startup";
import { Intent } from "~/forms/intents";
import { SiteSettingsSchema } from "~/forms/operator";
import { parseFields, type FieldErrors } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import { requireOperator, requireStepUp } from "~/services/operator.server";
import { operatorSettings, saveChatSettings, saveCompanyEmail, saveDemoBalances, saveSiteStatus } from "~/services/settings.server";
import { redirectWithFlash } from "~/services/web.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "settings"] };

export const meta = titled("settings.nav", { console: true });

export async function loader({ context }: LoaderFunctionArgs) {
  const operator = await requireOperator(context);
  return operatorSettings(context, operator);
}

/** `form`: which section failed, with its errors and what was typed. */
type ActionData = { form: string; errors: FieldErrors; values: Record<string, string> };

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(context);
  const parsed = parseFields(SiteSettingsSchema, await readForm(request));
  const refuse = (section: string, errors: FieldErrors, values: Record<string, string>, status = 400) =>
    data<ActionData>({ form: section, errors, values }, { status });
  if (!parsed.ok) return refuse("", { form: "errors.bad_request" }, {});
  // what was typed in the section (shown again when refused)
  const { intent: _intent, ...values } = parsed.value;
  const command = parsed.value;
  let message = "settings.saved";
  if (command.intent === Intent.SettingsChat) {
    const result = await saveChatSettings(context, operator, { link: command.service_link, type: command.service_link_type });
    if (!result.ok) return refuse("chat", result.errors, values, result.status);
  } else if (command.intent === Intent.SettingsEmail) {
    const result = await saveCompanyEmail(context, operator, command.email);
    if (!result.ok) return refuse("email", result.errors, values, result.status);
  } else if (command.intent === Intent.SettingsSite) {
    // turning the whole site away (or back on) is asked of an operator with a fresh step-up
    await requireStepUp(context, request);
    // a loss URL on the site's own hosts would send visitors back into the closed site
    const siteHosts = [new URL(request.url).host, ...(context.config.pcHost ? [context.config.pcHost] : [])];
    const result = await saveSiteStatus(context, operator, {
      status: command.status,
      lossUrl: command.loss_url,
      confirmed: command.confirm_close === "1",
      siteHosts,
    });
    if (!result.ok) return refuse("site", result.errors, values, result.status);
    message = result.value.status === CompanyStatus.Closed ? "settings.site_closed_done" : "settings.site_open_done";
  } else {
    const result = await saveDemoBalances(context, operator, {
      funding: command.demo_funding,
      options: command.demo_options,
      contract: command.demo_contract,
    });
    if (!result.ok) return refuse("demo", result.errors, values, result.status);
  }
  return redirectWithFlash(context, "/admin/settings", { kind: "success", message });
}

export default function AdminSettings() {
  const { t } = useTranslation();
  const s = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>() ?? null;
  const locale = useRootData()?.locale ?? "en-US";
  const errorsOf = (section: string) => (failed?.form === section ? failed.errors : {});
  /** What the field shows: what the operator typed when their save was refused, otherwise what is stored. */
  const shown = (section: string, name: string, stored: string) => (failed?.form === section ? (failed.values[name] ?? stored) : stored);
  /**
   * A section's form is drawn anew (its uncontrolled fields take their values again) whenever what
   * is stored or what was refused changes: a refused link does not linger in the field after
   * another section saves or the page's data is refreshed.
   */
  const keyOf = (section: string, stored: unknown) => JSON.stringify([stored, failed?.form === section ? failed.values : null]);
  const chatType = Number(shown("chat", "service_link_type", String(s.chat.type)));
  const siteStatus = Number(shown("site", "status", String(s.status)));
  return (
    <>
      <ErrorSummary errors={errorsOf("")} />
      <section aria-labelledby="chat-title" className="stack">
        <h2 id="chat-title" className="section-title">
          {t("settings.chat_title")}
        </h2>
        <Form key={keyOf("chat", s.chat)} method="post" className="card stack" aria-labelledby="chat-title">
          <ErrorSummary errors={errorsOf("chat")} />
          <fieldset className="stack">
            <legend>{t("settings.chat_mode")}</legend>
            {Object.values(ServiceLinkType).map((type) => (
              <label key={type} className="field-check">
                <input type="radio" name="service_link_type" value={type} defaultChecked={chatType === type} required />
                {t(`settings.chat_mode_${type}`)}
              </label>
            ))}
          </fieldset>
          <PlainField
            id="settings-service-link"
            name="service_link"
            label={t("settings.chat_link")}
            hint={t("settings.chat_link_hint")}
            defaultValue={shown("chat", "service_link", s.chat.link)}
            error={errorsOf("chat").service_link}
            maxLength={SETTINGS_LINK_MAX}
            autoComplete="off"
            dir="ltr"
          />
          <SubmitButton intent={Intent.SettingsChat}>{t("settings.save")}</SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="email-title" className="stack">
        <h2 id="email-title" className="section-title">
          {t("settings.email_title")}
        </h2>
        <Form key={keyOf("email", s.email)} method="post" className="card stack" aria-labelledby="email-title">
          <ErrorSummary errors={errorsOf("email")} />
          <PlainField
            id="settings-email"
            name="email"
            type="email"
            label={t("settings.email_label")}
            hint={t("settings.email_hint")}
            defaultValue={shown("email", "email", s.email)}
            error={errorsOf("email").email}
            autoComplete="off"
            dir="ltr"
          />
          <SubmitButton intent={Intent.SettingsEmail}>{t("settings.save")}</SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="site-title" className="stack">
        <h2 id="site-title" className="section-title">
          {t("settings.site_title")}
        </h2>
        <Form key={keyOf("site", [s.status, s.lossUrl])} method="post" className="card stack" aria-labelledby="site-title">
          <ErrorSummary errors={errorsOf("site")} />
          <p className={s.status === CompanyStatus.Closed ? "badge badge-stale" : "badge badge-live"} role="status">
            {s.status === CompanyStatus.Closed ? t("settings.site_is_closed") : t("settings.site_is_open")}
          </p>
          <fieldset className="stack">
            <legend>{t("settings.site_status")}</legend>
            {[CompanyStatus.Open, CompanyStatus.Closed].map((status) => (
              <label key={status} className="field-check">
                <input type="radio" name="status" value={status} defaultChecked={siteStatus === status} required />
                {status === CompanyStatus.Open ? t("settings.site_open") : t("settings.site_closed")}
              </label>
            ))}
          </fieldset>
          <PlainField
            id="settings-loss-url"
            name="loss_url"
            type="url"
            label={t("settings.loss_url")}
            hint={t("settings.loss_url_hint")}
            defaultValue={shown("site", "loss_url", s.lossUrl)}
            error={errorsOf("site").loss_url}
            maxLength={SETTINGS_LINK_MAX}
            autoComplete="off"
            dir="ltr"
          />
          <label className={errorsOf("site").confirm_close ? "field-check has-error" : "field-check"}>
            <input type="checkbox" name="confirm_close" value="1" aria-describedby="settings-close-hint" />
            {t("settings.confirm_close")}
          </label>
          <p className="muted small" id="settings-close-hint">
            {t("settings.confirm_close_hint")}
          </p>
          <SubmitButton intent={Intent.SettingsSite}>{t("settings.save")}</SubmitButton>
        </Form>
      </section>

      <section aria-labelledby="demo-title" className="stack">
        <h2 id="demo-title" className="section-title">
          {t("settings.demo_title")}
        </h2>
        <Form key={keyOf("demo", s.demo)} method="post" className="card stack" aria-labelledby="demo-title">
          <ErrorSummary errors={errorsOf("demo")} />
          <p className="muted small">{t("settings.demo_hint", { max: new Intl.NumberFormat(locale).format(DEMO_BALANCE_MAX_USD) })}</p>
          <div className="admin-edit-grid">
            {(["funding", "options", "contract"] as const).map((kind) => (
              <PlainField
                key={kind}
                id={`settings-demo-${kind}`}
                name={`demo_${kind}`}
                label={t(`settings.demo_${kind}`)}
                defaultValue={shown("demo", `demo_${kind}`, toDecimalString(s.demo[kind], 2))}
                error={errorsOf("demo")[`demo_${kind}`]}
                inputMode="decimal"
                autoComplete="off"
                required
              />
            ))}
          </div>
          <SubmitButton intent={Intent.SettingsDemo}>{t("settings.save")}</SubmitButton>
        </Form>
      </section>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
