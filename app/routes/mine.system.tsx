/** Other settings with logout (spec §2 /mine/system). */
import { RouteErrorBoundary } from "~/components/route-error";
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { ChevronIcon, GlobeIcon } from "~/components/icons";
import { PageHeader } from "~/components/layout";
import { ThemeSwitch } from "~/components/preferences";
import { languageInfo } from "~/i18n/config";
import { requireUser } from "~/services/web.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "user"] };

export const meta = titled("user.settings");

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(context, request);
  return { language: languageInfo(context.lang).label };
}

export default function System() {
  const { t } = useTranslation();
  const { language } = useLoaderData<typeof loader>();
  return (
    <div className="page narrow">
      <PageHeader title={t("user.settings")} back="/user" />
      <nav className="card">
        <ul className="rows">
          <li>
            <Link to="/language?from=/mine/system" className="row">
              <GlobeIcon />
              <span className="row-label">{t("user.language")}</span>
              <span className="row-value">{language}</span>
              <ChevronIcon />
            </Link>
          </li>
          <li>
            <ThemeSwitch />
          </li>
        </ul>
      </nav>
      <Form method="post" action="/logout" className="stack">
        <button type="submit" className="button danger wide">
          {t("user.logout")}
        </button>
      </Form>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
