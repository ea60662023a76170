/** Search (spec §2 /product): currency pairs (a pair opens /trade) and, on the main site, companies (a company opens its details). */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { SearchIcon } from "~/components/icons";
import { PageHeader } from "~/components/layout";
import { useQuotes } from "~/components/live";
import { InstrumentList } from "~/components/market";
import { toSummary } from "~/domain/instrument";
import { companyInfo } from "~/services/account.server";
import { RouteErrorBoundary } from "~/components/route-error";
import { listInstruments, marketQuotes } from "~/services/market.server";
import { useRootData } from "~/root";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 64);
  const needle = q.toLowerCase().replace(/[\s/_-]/g, "");
  const [list, market, company] = await Promise.all([listInstruments(context), marketQuotes(context), companyInfo(context)]);
  const mainSite = company?.type === 0;
  const pairs = list
    .filter((i) => !needle || i.code.toLowerCase().includes(needle) || i.showCode.toLowerCase().replace(/[\s/_-]/g, "").includes(needle))
    .map(toSummary);
  const companies = mainSite && company && (!needle || company.name.toLowerCase().includes(q.toLowerCase())) ? [company] : [];
  const openCompany = companies.find((c) => String(c.id) === url.searchParams.get("company")) ?? null;
  return { q, pairs, companies, openCompany, quotes: [...market.quotes.values()] };
}

export default function Product() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const root = useRootData();
  const locale = root?.locale ?? "en-US";
  const quotes = useQuotes(d.quotes);
  const submit = useSubmit();
  return (
    <div className="page">
      <PageHeader title={t("product.title")} back="/" />
      <Form method="get" role="search" className="search-form" onChange={(e) => submit(e.currentTarget, { replace: true, preventScrollReset: true })}>
        <label htmlFor="q" className="visually-hidden">
          {t("product.search_label")}
        </label>
        <div className="search-bar">
          <SearchIcon />
          <input id="q" name="q" type="search" defaultValue={d.q} placeholder={t("home.search")} maxLength={64} autoComplete="off" />
        </div>
        <noscript>
          <button type="submit" className="button">{t("product.search_button")}</button>
        </noscript>
      </Form>
      {d.companies.length > 0 ? (
        <section aria-labelledby="companies-title">
          <h2 id="companies-title" className="section-title">{t("product.companies")}</h2>
          <ul className="instrument-list">
            {d.companies.map((c) => (
              <li key={c.id}>
                <Link to={`/product?q=${encodeURIComponent(d.q)}&company=${c.id}`} className="instrument-row" preventScrollReset>
                  <span className="symbol">{c.name}</span>
                  <span className="muted small">{c.location}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {d.openCompany ? (
        <section className="card confirm-card" role="dialog" aria-labelledby="company-name">
          <h2 id="company-name">{d.openCompany.name}</h2>
          <dl className="details">
            <div><dt>{t("product.subject")}</dt><dd>{d.openCompany.subject}</dd></div>
            <div><dt>{t("product.address")}</dt><dd>{d.openCompany.registered_address}</dd></div>
            <div><dt>{t("product.location")}</dt><dd>{d.openCompany.location}</dd></div>
            <div><dt>{t("product.email")}</dt><dd>{d.openCompany.email}</dd></div>
            <div><dt>{t("product.website")}</dt><dd>{d.openCompany.url}</dd></div>
          </dl>
          <Link to={`/product?q=${encodeURIComponent(d.q)}`} className="button" preventScrollReset>
            {t("common.close")}
          </Link>
        </section>
      ) : null}
      <section aria-labelledby="pairs-title">
        <h2 id="pairs-title" className="section-title">{t("product.pairs")}</h2>
        <InstrumentList instruments={d.pairs} quotes={quotes} locale={locale} />
      </section>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
