/** Home (spec §2): header, balance card when signed in, featured instruments with mini charts, shortcuts, list by category. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { Sparkline } from "~/components/sparkline";
import { BellIcon, ChatIcon, GiftIcon, GlobeIcon, SearchIcon, TradeIcon, WalletIcon } from "~/components/icons";
import { ConnectionBadge, useQuotes } from "~/components/live";
import { ChangeBadge, InstrumentList, LivePrice, SkeletonRows } from "~/components/market";
import { Balance, FundingButtons, Money } from "~/components/money";
import { toSummary } from "~/domain/instrument";
import { direction } from "~/lib/format";
import { RouteErrorBoundary } from "~/components/route-error";
import { myAssets } from "~/services/account.server";
import { signInAgain } from "~/services/web.server";
import { supportChatButton } from "~/services/content/pages.server";
import { ChatLink } from "~/components/content";
import { SanctionsNotice } from "~/components/notice";
import { listCategories, listInstruments, marketQuotes, miniCharts } from "~/services/market.server";
import { useRootData, useServes } from "~/lib/root-data";
import { pageMeta } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "categories", "content", "deposit", "home", "market", "user", "wallet"] };

const FEATURED = 4;

export const meta: MetaFunction = ({ matches }) => pageMeta(matches, (t) => ({ title: null, description: t("home.meta_description") }));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const user = await context.user();
  const [cats, list, market, assets, chat] = await Promise.all([
    listCategories(context),
    listInstruments(context),
    marketQuotes(context),
    user ? myAssets(context, user.id) : null,
    supportChatButton(context, user),
  ]);
  const requested = Number(url.searchParams.get("category")) || null;
  const category = cats.some((c) => c.id === requested) ? requested : null;
  if (assets && !assets.ok && assets.kind === "session_ended") await signInAgain(context, request);
  const featured = list.slice(0, FEATURED).map(toSummary);
  return {
    categories: cats,
    featured,
    charts: await miniCharts(
      context,
      featured.map((f) => f.code),
    ),
    instruments: (category ? list.filter((i) => i.categoryId === category) : list).map(toSummary),
    quotes: [...market.quotes.values()],
    category,
    assets: assets?.ok ? { total: assets.value.total, profit: assets.value.profit, percent: assets.value.percent } : null,
    // signed in, but the backend holding the balance did not answer (upstream mode)
    assetsUnavailable: Boolean(assets && !assets.ok),
    chat,
  };
}

export default function Home() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const root = useRootData();
  const navigation = useNavigation();
  const quotes = useQuotes(data.quotes);
  const served = useServes();
  const user = root?.user;
  const locale = root?.locale ?? "en-US";
  const switchingCategory = navigation.state === "loading" && navigation.location.pathname === "/";
  return (
    <div className="page home">
      <header className="home-header">
        <div className="home-user">
          {user ? (
            <>
              <p className="user-label">{user.isDemo ? t("user.mock_account") : (user.email ?? user.mobile ?? user.wallet)}</p>
              <p className="muted small">
                {t("user.uid")}: <span className="num">{user.uid}</span>
              </p>
              {served("/user") ? null : (
                // upstream mode before the user centre is served: signing out stays one tap away
                <Form method="post" action="/logout">
                  <button type="submit" className="link-button small">
                    {t("user.logout")}
                  </button>
                </Form>
              )}
            </>
          ) : (
            <Link to="/login" className="button small-button">
              {t("auth.login_button")}
            </Link>
          )}
        </div>
        <div className="header-actions">
          <ConnectionBadge />
          <ChatLink chat={data.chat} className="icon-button" label={t("home.customer_service")}>
            <ChatIcon />
          </ChatLink>
          <Link to="/language?from=/" className="icon-button" aria-label={t("user.language")}>
            <GlobeIcon />
          </Link>
        </div>
      </header>
      {served("/product") ? (
        <Link to="/product" className="search-bar">
          <SearchIcon />
          <span>{t("home.search")}</span>
        </Link>
      ) : null}

      {data.assets ? (
        <section className="card assets-card" aria-labelledby="home-assets">
          <h2 id="home-assets">{t("home.total_balance")}</h2>
          <p className="big-number num">
            <Balance value={data.assets.total} locale={locale} /> <span className="unit">USD</span>
          </p>
          <p className="muted small">
            {t("home.today_profit")}:{" "}
            <span className={data.assets.profit > 0 ? "up num" : data.assets.profit < 0 ? "down num" : "num"}>
              {data.assets.profit > 0 ? "+" : ""}
              <Money value={data.assets.profit} locale={locale} /> ({data.assets.percent}%)
            </span>
          </p>
          <FundingButtons />
        </section>
      ) : data.assetsUnavailable ? (
        <section className="card assets-card" aria-labelledby="home-assets">
          <h2 id="home-assets">{t("home.total_balance")}</h2>
          <p className="muted" role="status">
            {t("home.balance_unavailable")}
          </p>
        </section>
      ) : null}

      <section aria-labelledby="featured-title">
        <h2 id="featured-title" className="visually-hidden">
          {t("home.featured")}
        </h2>
        <ul className="featured">
          {data.featured.map((i) => {
            const q = quotes.get(i.code);
            const points = [...(data.charts[i.code] ?? [])];
            if (q && points.length) points[points.length - 1] = q.Close;
            return (
              <li key={i.id} className="card featured-card">
                {served("/trade") ? (
                  <Link to={`/trade?code=${encodeURIComponent(i.code)}`} className="featured-link">
                    <span className="symbol">{i.showCode}</span>
                    <LivePrice value={q?.Close} precision={i.pricePrecision} locale={locale} className="featured-price" />
                    <ChangeBadge quote={q} locale={locale} />
                  </Link>
                ) : (
                  <div className="featured-link">
                    <span className="symbol">{i.showCode}</span>
                    <LivePrice value={q?.Close} precision={i.pricePrecision} locale={locale} className="featured-price" />
                    <ChangeBadge quote={q} locale={locale} />
                  </div>
                )}
                <Sparkline
                  points={points}
                  trend={q ? direction(q.Change) : "flat"}
                  label={t("home.chart_label", { symbol: i.showCode })}
                  scrollLabel={t("home.chart_scroll", { symbol: i.showCode })}
                />
              </li>
            );
          })}
        </ul>
      </section>

      <nav className="shortcuts" aria-label={t("home.shortcuts")}>
        {served("/loan") ? (
          <Link to="/loan">
            <WalletIcon />
            <span>{t("home.loan")}</span>
          </Link>
        ) : null}
        <ChatLink chat={data.chat}>
          <TradeIcon />
          <span>{t("home.buy_coin")}</span>
        </ChatLink>
        {served("/mine/announcement") ? (
          <Link to="/mine/announcement">
            <BellIcon />
            <span>{t("home.announcements")}</span>
          </Link>
        ) : null}
        {served("/mining") ? (
          <Link to="/mining">
            <GiftIcon />
            <span>{t("home.mining")}</span>
          </Link>
        ) : null}
      </nav>

      <section aria-labelledby="markets-title" className="markets">
        <h2 id="markets-title" className="section-title">
          {t("home.quotes")}
        </h2>
        <nav className="category-tabs" aria-label={t("home.categories")}>
          {data.categories.map((c) => {
            const active = data.category === c.id;
            return (
              <Link
                key={c.id}
                to={active ? "/" : `/?category=${c.id}`}
                preventScrollReset
                aria-current={active ? "page" : undefined}
                className={active ? "chip active" : "chip"}
              >
                {c.key ? t(`categories.${c.key}`) : c.name}
              </Link>
            );
          })}
        </nav>
        <div className="list-head muted small" aria-hidden="true">
          <span>{t("market.pair")}</span>
          <span>{t("market.price")}</span>
          <span>{t("market.change")}</span>
        </div>
        {switchingCategory ? (
          <SkeletonRows count={10} />
        ) : (
          <InstrumentList instruments={data.instruments} quotes={quotes} locale={locale} />
        )}
      </section>
      <SanctionsNotice className="home-notice" />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
