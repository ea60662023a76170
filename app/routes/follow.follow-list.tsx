/**
 * Master traders (spec §2 Copy trading, §3 Master list item; issue 11 §1): the traders the user
 * follows as cards (avatar or default image, nickname, follower count, detail button, counts of
 * open and closed follow orders, total follow amount, auto-open positions, max follow amount,
 * copy profit), then every active trader with a follow button when not followed. Tapping a count
 * opens a bottom sheet ('following order' or 'closed follow order') with that follow's orders;
 * without JavaScript the same list is a section of the page. Another user's follow → 404.
 */
import { data, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect, useRef, type KeyboardEvent } from "react";
import { useTranslation } from "~/i18n/react";
import { FollowTabs, SignedMoney, TraderAvatar } from "~/components/copy";
import { useHydrated } from "~/components/hydrated";
import { CloseIcon } from "~/components/icons";
import { EmptyState, PageHeader } from "~/components/layout";
import { Money } from "~/components/money";
import { OrderRow, orderViewOf } from "~/components/orders";
import { RouteErrorBoundary } from "~/components/route-error";
import { FollowOrderFilter } from "~/domain/copy";
import { useRootData } from "~/lib/root-data";
import { isTrader, traderList } from "~/services/copy/queries.server";
import { followCards, followOrders } from "~/services/copy/views.server";
import { requireUser } from "~/services/web.server";
import copyStylesHref from "~/styles/copy.css";
import ordersStylesHref from "~/styles/orders.css";
import { sheetKeyDown } from "~/components/sheet";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "copy", "home", "orders", "trade"] };

export const meta = titled("copy.follow_list_title");

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: ordersStylesHref },
  { rel: "stylesheet", href: copyStylesHref },
];

const ID = /^\d{1,15}$/;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const followParam = url.searchParams.get("orders");
  const status = url.searchParams.get("status") === "3" ? FollowOrderFilter.Closed : FollowOrderFilter.Following;
  const pageParam = url.searchParams.get("page") ?? "1";
  const page = /^\d{1,5}$/.test(pageParam) ? Number(pageParam) : 1;
  const [cards, traders, trader, sheet] = await Promise.all([
    followCards(context, user.id),
    traderList(context, user.id, 1, 50),
    isTrader(context, user.id),
    followParam === null
      ? null
      : ID.test(followParam)
        ? followOrders(context, user.id, { followId: Number(followParam), status, page })
        : Promise.resolve(null),
  ]);
  const notFound = followParam !== null && !sheet;
  return data(
    {
      cards,
      traders: traders.data.filter((t) => t.userId !== user.id),
      isTrader: trader,
      sheet:
        sheet && followParam
          ? {
              followId: Number(followParam),
              status,
              page: sheet.page,
              lastPage: sheet.lastPage,
              total: sheet.total,
              orders: sheet.orders.map((o) => orderViewOf(o)),
            }
          : null,
      notFound,
    },
    { status: notFound ? 404 : 200 },
  );
}

export default function FollowList() {
  const { t } = useTranslation();
  const { cards, traders, isTrader, sheet, notFound } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const hydrated = useHydrated();
  const followed = new Set(cards.map((c) => c.traderId));
  const sheetOpen = sheet !== null || notFound;
  const backgroundRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (backgroundRef.current) backgroundRef.current.inert = hydrated && sheetOpen;
  }, [hydrated, sheetOpen]);
  return (
    <div className="page">
      <div ref={backgroundRef} className="stack">
        <PageHeader title={t("copy.follow_list_title")} back="/follow" />
        <FollowTabs isTrader={isTrader} />
        <section aria-labelledby="my-follows">
          <h2 id="my-follows" className="section-title">
            {t("copy.my_follows")}
          </h2>
          {cards.length === 0 ? (
            <EmptyState title={t("copy.not_following_any")} />
          ) : (
            <ul className="copy-cards">
              {cards.map((c) => (
                <li key={c.followId} className="card copy-card" aria-labelledby={`follow-${c.followId}`}>
                  <div className="copy-card-head">
                    <TraderAvatar src={c.avatar} name={c.nickname} />
                    <div className="copy-card-name">
                      <h3 id={`follow-${c.followId}`}>{c.nickname}</h3>
                      <span className="muted small">
                        {t("copy.followers")}: <span className="num">{c.followNum}</span>
                        {c.status === 2 ? <span className="badge">{t("copy.paused_label")}</span> : null}
                      </span>
                    </div>
                    <Link to={`/follow/trader?id=${c.traderId}`} className="button small-button">
                      {t("copy.detail")}
                    </Link>
                  </div>
                  {c.traderStatus === 0 ? (
                    <p className="notice warn" role="status">
                      {t("copy.suspended_notice", { reason: c.suspendedReason })}
                    </p>
                  ) : null}
                  <dl className="copy-figures">
                    <div>
                      <dt>{t("copy.open_orders")}</dt>
                      <dd>
                        <Link to={`/follow/follow-list?orders=${c.followId}&status=1`} preventScrollReset className="num count-link">
                          {c.positionNum}
                        </Link>
                      </dd>
                    </div>
                    <div>
                      <dt>{t("copy.closed_orders")}</dt>
                      <dd>
                        <Link to={`/follow/follow-list?orders=${c.followId}&status=3`} preventScrollReset className="num count-link">
                          {c.totalNum}
                        </Link>
                      </dd>
                    </div>
                    <div>
                      <dt>{t("copy.total_amount")}</dt>
                      <dd>
                        <Money value={c.totalAmount} locale={locale} />
                      </dd>
                    </div>
                    <div>
                      <dt>{t("copy.auto_open")}</dt>
                      <dd className="num">{`×${c.multiple}`}</dd>
                    </div>
                    <div>
                      <dt>{t("copy.max_amount")}</dt>
                      <dd>
                        <Money value={c.maxAmount} locale={locale} />
                      </dd>
                    </div>
                    <div>
                      <dt>{t("copy.copy_profit")}</dt>
                      <dd>
                        <SignedMoney value={c.totalProfits} locale={locale} />
                      </dd>
                    </div>
                  </dl>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="all-traders">
          <h2 id="all-traders" className="section-title">
            {t("copy.all_traders")}
          </h2>
          {traders.length === 0 ? (
            <EmptyState title={t("copy.no_traders")} />
          ) : (
            <ul className="copy-cards">
              {traders.map((tr) => (
                <li key={tr.userId} className="card copy-card" aria-labelledby={`trader-${tr.userId}`}>
                  <div className="copy-card-head">
                    <TraderAvatar src={tr.avatar} name={tr.nickname} />
                    <div className="copy-card-name">
                      <h3 id={`trader-${tr.userId}`}>{tr.nickname}</h3>
                      <span className="muted small">
                        {t("copy.followers")}: <span className="num">{tr.followNum}</span>
                      </span>
                    </div>
                    <Link to={`/follow/trader?id=${tr.userId}`} className="button small-button">
                      {t("copy.detail")}
                    </Link>
                    {followed.has(tr.userId) ? null : (
                      <Link to={`/follow/submit?id=${tr.userId}`} className="button primary small-button">
                        {t("copy.follow")}
                      </Link>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      {sheetOpen ? <OrdersSheet sheet={sheet} locale={locale} /> : null}
    </div>
  );
}

type Sheet = ReturnType<typeof useLoaderData<typeof loader>>["sheet"];

/** The follow orders of one follow: a bottom sheet at 68 % of the screen with JavaScript, a page section without. */
function OrdersSheet({ sheet, locale }: { sheet: Sheet; locale: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const ref = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const closeHref = "/follow/follow-list";
  const close = () => navigate(closeHref, { replace: true, preventScrollReset: true });
  useEffect(() => {
    if (hydrated) headingRef.current?.focus({ preventScroll: true });
  }, [hydrated, sheet?.followId, sheet?.status]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (hydrated) sheetKeyDown(e, ref.current, close);
  };

  const title = sheet?.status === FollowOrderFilter.Closed ? t("copy.sheet_closed") : t("copy.sheet_following");
  return (
    <div className="sheet-layer">
      {hydrated ? <div className="sheet-backdrop" aria-hidden="true" onClick={close} /> : null}
      <section
        ref={ref}
        className="sheet copy-sheet"
        role="dialog"
        aria-modal={hydrated || undefined}
        aria-labelledby="follow-orders-title"
        onKeyDown={onKeyDown}
      >
        <header className="sheet-head">
          <h2 id="follow-orders-title" ref={headingRef} tabIndex={-1}>
            {title}
          </h2>
          <Link to={closeHref} className="icon-button" aria-label={t("common.close")} replace preventScrollReset>
            <CloseIcon />
          </Link>
        </header>
        {!sheet ? (
          <p className="notice warn">{t("orders.not_found")}</p>
        ) : sheet.orders.length === 0 ? (
          <EmptyState title={t("common.no_data")} />
        ) : (
          <>
            <ul className="order-list">
              {sheet.orders.map((o) => (
                <li key={o.id}>
                  <OrderRow order={o} to={`/order?type=${sheet.status}&detail=${o.id}`} locale={locale} />
                </li>
              ))}
            </ul>
            {sheet.page < sheet.lastPage ? (
              <Link
                to={`/follow/follow-list?orders=${sheet.followId}&status=${sheet.status}&page=${sheet.page + 1}`}
                className="button"
                preventScrollReset
              >
                {t("copy.next_page")}
              </Link>
            ) : (
              <p className="muted center small">{t("common.no_more")}</p>
            )}
          </>
        )}
      </section>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
