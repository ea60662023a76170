/**
 * The operator's option terms: the durations on offer (length, profit ratio, minimum stake,
 * offered or not; a new one can be added), the preset stakes shown as buttons on the trade page,
 * and what a wrong option costs (the whole stake, or only the profit figure). Options already
 * bought keep the terms snapshotted when they were bought. Plain forms: works without
 * JavaScript. Non-operators get 404.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { ErrorSummary, PlainField, SubmitButton } from "~/components/forms";
import { durationText } from "~/components/option-form";
import { RouteErrorBoundary } from "~/components/route-error";
import { toDecimalString } from "~/domain/money";
import { Intent } from "~/forms/intents";
import { OptionTermsSchema } from "~/forms/operator";
import { parseFields, type FieldErrors } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import {
  allOptionTerms,
  saveOptionDuration,
  saveOptionLossLevel,
  saveOptionStakes,
  type DurationRow,
} from "~/services/option/operator.server";
import { requireOperator } from "~/services/operator.server";
import { redirectWithFlash } from "~/services/web.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "option", "options", "orders", "settings", "trade"] };

export const meta = titled("options.admin_nav", { console: true });

export async function loader({ context }: LoaderFunctionArgs) {
  const operator = await requireOperator(context);
  return allOptionTerms(context, operator);
}

/** `form`: which form failed ("new", "stakes" or a duration's id), with its errors and what was typed. */
type ActionData = { form: string; errors: FieldErrors; values: Record<string, string> };

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(context);
  const parsed = parseFields(OptionTermsSchema, await readForm(request));
  if (!parsed.ok) return data<ActionData>({ form: "", errors: { form: "errors.bad_request" }, values: {} }, { status: 400 });
  const command = parsed.value;
  if (command.intent === Intent.OptionDurationSave) {
    const { intent: _intent, ...values } = command;
    const result = await saveOptionDuration(context, operator, values);
    if (!result.ok) return data<ActionData>({ form: values.id || "new", errors: result.errors, values }, { status: result.status });
  } else if (command.intent === Intent.OptionStakesSave) {
    const result = await saveOptionStakes(context, operator, command.amounts);
    if (!result.ok)
      return data<ActionData>({ form: "stakes", errors: result.errors, values: { amounts: command.amounts } }, { status: result.status });
  } else {
    const result = await saveOptionLossLevel(context, operator, command.loss_level);
    if (!result.ok) return data<ActionData>({ form: "loss", errors: result.errors, values: {} }, { status: result.status });
  }
  return redirectWithFlash(context, "/admin/options", { kind: "success", message: "options.admin_saved" });
}

function DurationForm({ d, failed }: { d: DurationRow | null; failed: ActionData | null }) {
  const { t } = useTranslation();
  const locale = useRootData()?.locale ?? "en-US";
  const unitLocale = useRootData()?.unitLocale ?? locale;
  const key = d ? String(d.id) : "new";
  const errors = failed?.form === key ? failed.errors : {};
  const typed = failed?.form === key ? failed.values : null;
  const field = (name: string, label: string, stored: string, inputMode: "decimal" | "numeric" = "decimal") => (
    <PlainField
      id={`duration-${key}-${name}`}
      name={name}
      label={label}
      defaultValue={typed?.[name] ?? stored}
      error={errors[name]}
      inputMode={inputMode}
      autoComplete="off"
      required
    />
  );
  return (
    <Form method="post" className="stack" aria-label={d ? durationText(unitLocale, d.seconds) : t("options.admin_add")}>
      {d ? <input type="hidden" name="id" value={d.id} /> : null}
      <ErrorSummary errors={errors} />
      <div className="admin-edit-grid">
        {field("seconds", t("options.admin_seconds"), d ? String(d.seconds) : "", "numeric")}
        {field("profit_ratio", t("options.admin_profit_ratio"), d?.profitRatio ?? "")}
        {field("min_amount", t("options.admin_min_amount"), d ? toDecimalString(d.minAmount, 2) : "")}
        <label className="field-check">
          <input type="checkbox" name="status" value="1" defaultChecked={typed ? typed.status === "1" : d ? d.status === 1 : true} />
          {t("options.admin_offered")}
        </label>
      </div>
      <SubmitButton intent={Intent.OptionDurationSave}>{d ? t("options.admin_save") : t("options.admin_add_submit")}</SubmitButton>
    </Form>
  );
}

export default function AdminOptions() {
  const { t } = useTranslation();
  const { durations, amounts, lossLevel } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>() ?? null;
  const locale = useRootData()?.locale ?? "en-US";
  const unitLocale = useRootData()?.unitLocale ?? locale;
  /** The errors of the form named `form` ("stakes", "loss", "" for the page), if it is the one that failed. */
  const errorsOf = (form: string) => (failed?.form === form ? failed.errors : {});
  return (
    <>
      <ErrorSummary errors={errorsOf("")} />
      <section aria-labelledby="durations-title" className="stack">
        <h2 id="durations-title" className="section-title">
          {t("options.admin_durations")}
        </h2>
        <p className="muted small">{t("options.admin_durations_hint")}</p>
        {durations.map((d) => (
          <article key={d.id} className="card stack" aria-labelledby={`duration-${d.id}-title`}>
            <h3 id={`duration-${d.id}-title`} className="record-head">
              <span>{durationText(unitLocale, d.seconds)}</span>
              <span className="badge">{d.status === 1 ? t("options.admin_offered") : t("options.admin_not_offered")}</span>
            </h3>
            <DurationForm d={d} failed={failed} />
          </article>
        ))}
        <article className="card stack" aria-labelledby="duration-new-title">
          <h3 id="duration-new-title">{t("options.admin_add")}</h3>
          <DurationForm d={null} failed={failed} />
        </article>
      </section>
      <section aria-labelledby="stakes-title" className="stack">
        <h2 id="stakes-title" className="section-title">
          {t("options.admin_stakes")}
        </h2>
        <Form method="post" className="card stack">
          <ErrorSummary errors={errorsOf("stakes")} />
          <PlainField
            id="stakes-amounts"
            name="amounts"
            label={t("options.admin_stakes_label")}
            hint={t("options.admin_stakes_hint")}
            defaultValue={failed?.form === "stakes" ? (failed.values.amounts ?? "") : amounts.map((a) => toDecimalString(a, 2)).join(", ")}
            error={errorsOf("stakes").amounts}
            autoComplete="off"
            required
          />
          <SubmitButton intent={Intent.OptionStakesSave}>{t("options.admin_save")}</SubmitButton>
        </Form>
      </section>
      <section aria-labelledby="loss-title" className="stack">
        <h2 id="loss-title" className="section-title">
          {t("options.admin_loss")}
        </h2>
        <Form method="post" className="card stack">
          <ErrorSummary errors={errorsOf("loss")} />
          <fieldset className="stack" aria-describedby="loss-hint">
            <legend className="visually-hidden">{t("options.admin_loss")}</legend>
            {[0, 1].map((level) => (
              <label key={level} className="field-check">
                <input type="radio" name="loss_level" value={level} defaultChecked={lossLevel === level} required />
                {t(`options.admin_loss_${level}`)}
              </label>
            ))}
          </fieldset>
          <p className="muted small" id="loss-hint">
            {t("options.admin_loss_hint")}
          </p>
          <SubmitButton intent={Intent.OptionLossSave}>{t("options.admin_save")}</SubmitButton>
        </Form>
      </section>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
