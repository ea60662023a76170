/**
 * The operator's step-up: a fresh code sent to their e-mail, asked before money-moving approvals
 * (deposits credited, withdrawals paid). It lasts STEP_UP_TTL_MS for this session; then the
 * operator returns to the page they came from (`from`, through safeRedirect).
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { CodeButton, DefaultSubmit, Notice, SubmitButton } from "~/components/forms";
import { RouteErrorBoundary } from "~/components/route-error";
import { Intent } from "~/forms/intents";
import { StepUpSchema } from "~/forms/operator";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { safeRedirect } from "~/lib/redirect";
import { sendStepUpCode } from "~/services/auth/passwords.server";
import { requireOperator, STEP_UP_TTL_MS, verifyStepUp } from "~/services/operator.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "settings"] };

export const meta = titled("admin.step_up", { console: true });

export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireOperator(context);
  return { contact: user.email ?? user.mobile ?? "", minutes: STEP_UP_TTL_MS / 60_000 };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireOperator(context);
  const parsed = parseFields(StepUpSchema, await readForm(request));
  const from = safeRedirect(new URL(request.url).searchParams.get("from"), "/admin");
  if (!parsed.ok) return data({ error: "errors.bad_request", notice: null, codeSeconds: 0 }, { status: 400 });
  const command = parsed.value;
  switch (command.intent) {
    case Intent.SendCode: {
      const sent = await sendStepUpCode(context, user);
      if (!sent.ok)
        return data({ error: Object.values(sent.errors)[0] ?? "errors.try_again", notice: null, codeSeconds: 0 }, { status: sent.status });
      return { error: null, notice: "auth.code_sent", codeSeconds: sent.value.seconds };
    }
    case Intent.Verify: {
      if (!(await verifyStepUp(context, user, command.code)))
        return data({ error: "errors.code_invalid", notice: null, codeSeconds: 0 }, { status: 400 });
      return redirect(from);
    }
  }
}

export default function AdminVerify() {
  const { t } = useTranslation();
  const { contact, minutes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const error = actionData?.error ?? null;
  return (
    <section className="card narrow">
      <h2>{t("admin.step_up")}</h2>
      <p className="muted">{t("admin.step_up_explain", { contact, minutes })}</p>
      <Form
        method="post"
        className="form"
        action={`/admin/verify?${new URLSearchParams({ from: params.get("from") ?? "/admin" }).toString()}`}
      >
        <DefaultSubmit intent={Intent.Verify} />
        {error ? (
          <p className="form-errors" role="alert">
            {translateMessage(t, error)}
          </p>
        ) : null}
        <Notice message={actionData?.notice} />
        <div className={error ? "field has-error" : "field"}>
          <label htmlFor="stepup-code">{t("auth.code")}</label>
          <div className="input-row">
            <input
              id="stepup-code"
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="\d{6}"
              maxLength={6}
              aria-invalid={error ? true : undefined}
            />
            <CodeButton secondsLeft={actionData?.codeSeconds ?? 0} />
          </div>
        </div>
        <SubmitButton intent={Intent.Verify}>{t("common.confirm")}</SubmitButton>
      </Form>
    </section>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
