/** Company e-mail (spec §2 /mine/email): the main company's contact address, as a mailto link. */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { CopyButton } from "~/components/copy-button";
import { EmptyState, PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { companyEmail } from "~/services/content/pages.server";
import contentStylesHref from "~/styles/content.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "content", "deposit", "user", "wallet"] };

export const meta = titled("user.company_email");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStylesHref }];

export async function loader({ context }: LoaderFunctionArgs) {
  return { email: await companyEmail(context) };
}

export default function CompanyEmail() {
  const { t } = useTranslation();
  const { email } = useLoaderData<typeof loader>();
  return (
    <div className="page narrow content-page">
      <PageHeader title={t("user.company_email")} back="/user" />
      {email ? (
        <section className="card" aria-labelledby="email-title">
          <h2 id="email-title">{t("content.email_title")}</h2>
          <p className="muted">{t("content.email_text")}</p>
          <p className="address-text" translate="no">
            <a href={`mailto:${email}`}>{email}</a>
          </p>
          <div className="input-row copy-row">
            <a className="button primary" href={`mailto:${email}`}>
              {t("content.write_email")}
            </a>
            <CopyButton text={email} doneLabel={t("content.copy_success")} />
          </div>
        </section>
      ) : (
        <EmptyState title={t("content.no_email")} />
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
