/**
 * Search (spec §2 /product): currency pairs (a pair opens /trade) and, on the main site (company
 * type 0), companies by name; a company opens a popup with its card, where it can be chosen
 * (cookie company_id, three years, spec §9).
 *
 * Without JavaScript the search is a plain GET form and the popup is a section of the page
 * (?company=<id>). With JavaScript the results follow the typing: a short pause after the last
 * keystroke loads the results through a fetcher, and each new load cancels the one before it
 * (a result for an older text is never shown); the popup is a modal dialog (focus kept inside,
 * Escape closes it and gives focus back to the company it came from).
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "~/i18n/react";
import { CloseIcon, SearchIcon } from "~/components/icons";
import { useHydrated } from "~/components/hydrated";
import { PageHeader } from "~/components/layout";
import { useQuotes } from "~/components/live";
import { InstrumentList } from "~/components/market";
import { RouteErrorBoundary } from "~/components/route-error";
import { sheetKeyDown } from "~/components/sheet";
import { SEARCH_MAX, companyCookie, parseCompanyId, searchText } from "~/domain/company";
import { toSummary } from "~/domain/instrument";
import { Intent } from "~/forms/intents";
import { readForm } from "~/lib/http.server";
import { useRootData } from "~/lib/root-data";
import { marketQuotes } from "~/services/market.server";
import { chosenCompanyId, companyCard, isMainSite, searchCompanies, searchPairs, type CompanyCard } from "~/services/search.server";
import { redirectWithFlash } from "~/services/web.server";
import productStylesHref from "~/styles/product.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "market", "product"] };

export const meta = titled("product.title", { description: "product.meta_description" });

export const links: LinksFunction = () => [{ rel: "stylesheet", href: productStylesHref }];

/** The pause after the last keystroke before the results load (with JavaScript). */
const TYPING_PAUSE_MS = 250;

function productPath(q: string, company?: number) {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (company) params.set("company", String(company));
  const query = params.toString();
  return query ? `/product?${query}` : "/product";
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const q = searchText(url.searchParams.get("q"));
  const rawCompany = url.searchParams.get("company");
  const [mainSite, pairs, companies, market, chosen, openCompany] = await Promise.all([
    isMainSite(context),
    searchPairs(context, q),
    searchCompanies(context, q),
    marketQuotes(context),
    chosenCompanyId(context, request),
    rawCompany === null ? null : companyCard(context, parseCompanyId(rawCompany)),
  ]);
  // An unknown, closed or malformed company id: the search page with a notice, answered 404.
  const missing = rawCompany !== null && !openCompany;
  return data(
    { q, mainSite, pairs: pairs.map(toSummary), companies, openCompany, missing, chosen, quotes: [...market.quotes.values()] },
    { status: missing ? 404 : 200 },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  const q = searchText(form.get("q"));
  if (form.get("intent") !== Intent.ChooseCompany)
    return redirectWithFlash(context, productPath(q), { kind: "error", message: "errors.bad_request" });
  const company = await companyCard(context, parseCompanyId(form.get("company_id")));
  // closed (or gone) while its popup was open: back to the search, saying so
  if (!company) return redirectWithFlash(context, productPath(q), { kind: "error", message: "product.company_not_found" });
  return redirectWithFlash(
    context,
    productPath(q, company.id),
    { kind: "success", message: "product.company_chosen" },
    { "Set-Cookie": companyCookie(company.id) },
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;
type Results = Pick<LoaderData, "q" | "pairs" | "companies" | "mainSite">;

/**
 * The results shown: the page's own (after a navigation or the form's submit) or the latest
 * typed search's. A fetcher load cancels the previous one; an answer for a text other than the
 * one now in the box is ignored.
 */
function useTypedSearch(page: Results) {
  const fetcher = useFetcher<typeof loader>({ key: "product-search" });
  const [results, setResults] = useState<Results>(page);
  const wanted = useRef(page.q);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    wanted.current = page.q;
    setResults(page);
  }, [page]);
  useEffect(() => {
    const answer = fetcher.data;
    if (answer && answer.q === wanted.current) setResults(answer);
  }, [fetcher.data]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const onType = (value: string) => {
    const q = searchText(value);
    wanted.current = q;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => fetcher.load(productPath(q)), TYPING_PAUSE_MS);
  };
  const pending = fetcher.state === "loading";
  return { results, onType, pending };
}

export default function Product() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const root = useRootData();
  const locale = root?.locale ?? "en-US";
  const quotes = useQuotes(d.quotes);
  const { results, onType, pending } = useTypedSearch(d);
  const label = d.mainSite ? t("product.search_label") : t("product.search_pairs_label");
  return (
    <div className="page product-page">
      <PageHeader title={t("product.title")} back="/" />
      <Form method="get" role="search" className="search-form" action="/product">
        <label htmlFor="q" className="visually-hidden">
          {label}
        </label>
        <div className="search-bar">
          <SearchIcon />
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={d.q}
            placeholder={label}
            maxLength={SEARCH_MAX}
            autoComplete="off"
            enterKeyHint="search"
            onChange={(e) => onType(e.currentTarget.value)}
          />
        </div>
        <button type="submit" className="button search-submit">
          {t("product.search_button")}
        </button>
      </Form>
      <p className="visually-hidden" role="status" aria-live="polite">
        {pending ? t("common.loading") : ""}
      </p>
      {d.missing ? (
        <p className="notice warn" role="alert">
          {t("product.company_not_found")}
        </p>
      ) : null}
      {d.openCompany ? <CompanyDialog company={d.openCompany} q={d.q} chosen={d.chosen === d.openCompany.id} /> : null}
      {results.mainSite ? (
        <section aria-labelledby="companies-title">
          <h2 id="companies-title" className="section-title">
            {t("product.companies")}
          </h2>
          {results.companies.length === 0 ? (
            <p className="muted">{t("product.no_companies")}</p>
          ) : (
            <ul className="company-list">
              {results.companies.map((c) => (
                <li key={c.id}>
                  <Link id={`company-${c.id}`} to={productPath(results.q, c.id)} className="company-row" preventScrollReset>
                    <CompanyLogo company={c} />
                    <span className="company-name">{c.name}</span>
                    <span className="muted small">{c.location}</span>
                    {d.chosen === c.id ? <span className="badge">{t("product.your_company")}</span> : null}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}
      <section aria-labelledby="pairs-title">
        <h2 id="pairs-title" className="section-title">
          {t("product.pairs")}
        </h2>
        <InstrumentList instruments={results.pairs} quotes={quotes} locale={locale} />
      </section>
    </div>
  );
}

function CompanyLogo({ company }: { company: Pick<CompanyCard, "name" | "logo"> }) {
  return company.logo ? (
    <img className="company-logo" src={company.logo} alt="" width={40} height={40} />
  ) : (
    <span className="company-logo company-initial" aria-hidden="true">
      {Array.from(company.name.trim())[0]?.toUpperCase() ?? "?"}
    </span>
  );
}

/** The company's card: a modal dialog with JavaScript, a section of the page without it. */
function CompanyDialog({ company, q, chosen }: { company: CompanyCard; q: string; chosen: boolean }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const ref = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const closeHref = productPath(q);
  const close = () => {
    navigate(closeHref, { replace: true, preventScrollReset: true });
    // focus goes back to the company the dialog came from
    requestAnimationFrame(() => document.getElementById(`company-${company.id}`)?.focus());
  };
  useEffect(() => {
    if (hydrated) headingRef.current?.focus({ preventScroll: true });
  }, [hydrated, company.id]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (hydrated) sheetKeyDown(e, ref.current, close);
  };
  const rows: [string, React.ReactNode][] = [
    [t("product.subject"), company.subject],
    [t("product.address"), company.registered_address],
    [t("product.location"), company.location],
    [t("product.email"), company.email ? <a href={`mailto:${company.email}`}>{company.email}</a> : "—"],
    [
      t("product.website"),
      company.url ? (
        <a href={company.url} target="_blank" rel="noopener noreferrer">
          {company.url}
        </a>
      ) : (
        "—"
      ),
    ],
  ];
  return (
    <div className={hydrated ? "modal-layer" : "modal-layer static"}>
      {hydrated ? <div className="modal-backdrop" aria-hidden="true" onClick={close} /> : null}
      <section
        ref={ref}
        className="card company-dialog"
        role="dialog"
        aria-modal={hydrated || undefined}
        aria-labelledby="company-name"
        onKeyDown={onKeyDown}
      >
        <header className="company-dialog-head">
          <CompanyLogo company={company} />
          <h2 id="company-name" ref={headingRef} tabIndex={-1}>
            {company.name}
          </h2>
          <Link
            to={closeHref}
            className="icon-button"
            aria-label={t("common.close")}
            replace
            preventScrollReset
            onClick={(e) => {
              if (!hydrated) return;
              e.preventDefault();
              close();
            }}
          >
            <CloseIcon />
          </Link>
        </header>
        <dl className="details company-details">
          {rows.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value || "—"}</dd>
            </div>
          ))}
        </dl>
        {chosen ? (
          <p className="notice" role="status">
            {t("product.your_company")}
          </p>
        ) : (
          <Form method="post" action="/product" replace preventScrollReset>
            <input type="hidden" name="company_id" value={company.id} />
            <input type="hidden" name="q" value={q} />
            <button type="submit" name="intent" value={Intent.ChooseCompany} className="button primary">
              {t("product.choose_company")}
            </button>
          </Form>
        )}
      </section>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
