/** Language picker (spec §2 /language): the choice is remembered in a cookie (and on the account). */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { CheckIcon } from "~/components/icons";
import { PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { LanguageSchema } from "~/forms/account";
import { Intent } from "~/forms/intents";
import { parseFields } from "~/forms/parse";
import { LANGUAGES } from "~/i18n/config";
import { langCookie } from "~/i18n/i18n.server";
import { readForm } from "~/lib/http.server";
import { safeRedirect } from "~/lib/redirect";
import { setUserLanguage } from "~/services/account.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "user"] };

export const meta = titled("user.language");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const from = safeRedirect(new URL(request.url).searchParams.get("from"), "/");
  return { current: context.lang, from };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = parseFields(LanguageSchema, await readForm(request));
  if (!parsed.ok) return redirect("/language");
  const { lang, from } = parsed.value;
  const user = await context.user();
  if (user) await setUserLanguage(context, user.id, lang);
  return redirect(safeRedirect(from, "/"), { headers: { "Set-Cookie": await langCookie.serialize(lang) } });
}

export default function Language() {
  const { t } = useTranslation();
  const { current, from } = useLoaderData<typeof loader>();
  return (
    <div className="page narrow">
      <PageHeader title={t("user.language")} back={from} />
      <Form method="post" action="/language" className="card">
        <input type="hidden" name="from" value={from} />
        <input type="hidden" name="intent" value={Intent.Language} />
        <ul className="rows" role="list">
          {LANGUAGES.map((l) => (
            <li key={l.code}>
              <button
                type="submit"
                name="lang"
                value={l.code}
                className="row"
                aria-current={l.code === current ? "true" : undefined}
                lang={l.htmlLang}
              >
                <span className="flag" aria-hidden="true">
                  {l.flag}
                </span>
                <span className="row-label">{l.label}</span>
                {l.code === current ? <CheckIcon className="check" title={t("common.selected")} /> : null}
              </button>
            </li>
          ))}
        </ul>
      </Form>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
