/**
 * Order records (spec §2 Orders, login required): contract and future tabs with their status
 * tabs; the contract lists (holding, pending, history) with their total profit, paged by plain
 * links (infinite loading and pull-to-refresh with JavaScript), and an order's detail sheet
 * (`?detail=ID`) with its actions: close (holding) and cancel (pending), each confirmed first
 * (`&confirm=close|cancel`, a step that works without JavaScript), and the stop-loss /
 * take-profit form. Every action is a plain POST answered with a redirect and a flash toast.
 * With JavaScript the socket keeps profits live and drops orders the server closed.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getValibotConstraint } from "@conform-to/valibot";
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useFetcher, useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "~/i18n/react";
import { Field, FormErrors } from "~/components/fields";
import { SubmitButton } from "~/components/forms";
import { useHydrated } from "~/components/hydrated";
import { CloseIcon, ResetIcon } from "~/components/icons";
import { EmptyState, PageHeader } from "~/components/layout";
import {
  ORDER_STATUS,
  OrderDetail,
  OrderRow,
  formatAmount,
  formatProfit,
  formatSteps,
  orderViewOf,
  profitClass,
  useLiveOrders,
} from "~/components/orders";
import { RouteErrorBoundary } from "~/components/route-error";
import { stepsToDecimal } from "~/domain/contract";
import { Intent } from "~/forms/intents";
import { OrderActionSchema, StopsSchema, stopsCommandOf, stopsErrorsOf } from "~/forms/orders";
import { parseFields, submissionOf } from "~/forms/parse";
import { replyWithErrors } from "~/forms/reply";
import { readForm } from "~/lib/http.server";
import { useRootData, useServes } from "~/lib/root-data";
import { cancelMyOrder, closeMyOrder, setMyStops } from "~/services/contract/commands.server";
import { myOrder, myOrders } from "~/services/contract/queries.server";
import { serves } from "~/lib/upstream-areas";
import type { ContractOrder, OrderView } from "~/services/contract/views";
import { copiedFrom } from "~/services/copy/views.server";
import { redirectWithFlash, requireUser, valueOf, type Flash } from "~/services/web.server";
import type { AppContext } from "~/context.server";
import ordersStylesHref from "~/styles/orders.css";
import optionsStylesHref from "~/styles/options.css";
import { OptionDetail, OptionRow, livePrediction, useClock } from "~/components/options";
import { useLiveClient, useQuotes } from "~/components/live";
import { myOptionDetail, myOptions } from "~/services/option/queries.server";
import type { OptionRow as OptionRecord, OptionView } from "~/services/option/views";
import { marketQuotes } from "~/services/market.server";
import type { Quote } from "~/domain/market";
import { sheetKeyDown } from "~/components/sheet";
import { PullIndicator, usePullToRefresh } from "~/components/pull-to-refresh";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "contract", "copy", "option", "options", "orders", "trade"] };

export const meta = titled("tabs.order");

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: ordersStylesHref },
  { rel: "stylesheet", href: optionsStylesHref },
];

const CONTRACT_TABS = [
  { type: "1", label: "orders.holding" },
  { type: "0", label: "orders.pending" },
  { type: "3", label: "orders.history" },
  { type: "4", label: "orders.status_4" },
];
const FUTURE_TABS = [
  { type: "1", label: "orders.in_transaction" },
  { type: "3", label: "orders.closed" },
];
/** The confirm steps: `&confirm=close` (a holding position), `&confirm=cancel` (a pending order). */
type Confirm = "close" | "cancel";
const CONFIRM_ID = "order-confirm";

interface ListParams {
  source: "0" | "1";
  type: string;
  page: number;
}

/** The list a URL asks for: source 0 contract / 1 future, its status tab, the page (≥ 1). */
function listParams(url: URL, optionsServed = true): ListParams {
  const source = url.searchParams.get("source") === "1" && optionsServed ? "1" : "0";
  const tabs = source === "1" ? FUTURE_TABS : CONTRACT_TABS;
  const type = tabs.find((tab) => tab.type === url.searchParams.get("type"))?.type ?? "1";
  const raw = url.searchParams.get("page") ?? "";
  const page = /^\d{1,5}$/.test(raw) ? Math.max(1, Number(raw)) : 1;
  return { source, type, page };
}

/** The address of a list (and of an order's sheet, and its confirm step, over that list). */
function listHref(p: ListParams, extra: { detail?: number; confirm?: Confirm } = {}) {
  let href = `/order?source=${p.source}&type=${p.type}`;
  if (p.page > 1) href += `&page=${p.page}`;
  if (extra.detail !== undefined) href += `&detail=${extra.detail}`;
  // the confirm step opens scrolled to itself (without JavaScript the sheet is a long page)
  if (extra.confirm) href += `&confirm=${extra.confirm}#${CONFIRM_ID}`;
  return href;
}

function toOptionView(o: OptionRecord & { showCode: string }): OptionView {
  return {
    id: o.id,
    code: o.code,
    showCode: o.showCode,
    direction: o.direction,
    amount: o.amount,
    profitRatio: o.profitRatio,
    seconds: o.seconds,
    lossLevel: o.lossLevel,
    precision: o.precision,
    openPrice: o.openPrice,
    openTickAt: o.openTickAt,
    openFeed: o.openFeed,
    expiresAt: o.expiresAt,
    status: o.status,
    endPrice: o.endPrice,
    endTickAt: o.endTickAt,
    endFeed: o.endFeed,
    late: o.late,
    profit: o.profit,
    createdAt: o.createdAt,
    settledAt: o.settledAt,
  };
}

const NO_QUOTES: Quote[] = [];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  // upstream mode does not serve timed options yet (lib/upstream-areas.ts): the contract lists
  const params = listParams(url, serves(context.config.platform.kind, `/order${url.search}`));
  const detailParam = url.searchParams.get("detail");
  const detailId = detailParam !== null && /^\d{1,15}$/.test(detailParam) ? Number(detailParam) : 0;
  const future = params.source === "1";
  const [list, found, optionList, foundOption, market] = await Promise.all([
    !future ? myOrders(context, user.id, Number(params.type), params.page).then((read) => valueOf(context, request, read)) : null,
    detailParam !== null && detailId > 0 && !future
      ? myOrder(context, user.id, detailId).then((read) => valueOf(context, request, read))
      : null,
    future ? myOptions(context, user.id, Number(params.type), params.page).then((read) => valueOf(context, request, read)) : null,
    detailParam !== null && detailId > 0 && future
      ? myOptionDetail(context, user.id, detailId).then((read) => valueOf(context, request, read))
      : null,
    // open options show their predicted profit at the current quotes
    future && (params.type === "1" || detailParam !== null) ? marketQuotes(context) : null,
  ]);
  // copied orders (follow_type 2) are marked with their trader's name
  const names = await copiedFrom(
    context,
    [...(list?.orders ?? []), ...(found ? [found] : [])].flatMap((o) => (o.followType === 2 && o.followId !== null ? [o.followId] : [])),
  );
  const toView = (o: ContractOrder): OrderView => orderViewOf(o, o.followId !== null ? (names.get(o.followId) ?? null) : null);
  const detail = found ? toView(found) : null;
  const option = foundOption ? toOptionView(foundOption) : null;
  // A missing id, or another user's: the same answer, revealing nothing.
  const notFound = detailParam !== null && !detail && !option;
  const confirmParam = url.searchParams.get("confirm");
  const confirm: Confirm | null =
    detail &&
    ((confirmParam === "close" && detail.status === ORDER_STATUS.Holding) ||
      (confirmParam === "cancel" && detail.status === ORDER_STATUS.Pending))
      ? confirmParam
      : null;
  return data(
    {
      ...params,
      page: list?.page ?? optionList?.page ?? 1,
      lastPage: list?.lastPage ?? optionList?.lastPage ?? 1,
      total: list?.total ?? optionList?.total ?? 0,
      allProfit: list?.allProfit ?? 0,
      orders: (list?.orders ?? []).map(toView),
      options: (optionList?.options ?? []).map(toOptionView),
      option,
      quotes: market ? [...market.quotes.values()] : NO_QUOTES,
      renderedAt: Date.now(),
      detail,
      notFound,
      confirm,
      constraint: getValibotConstraint(StopsSchema),
    },
    { status: notFound ? 404 : 200 },
  );
}

/** Post/redirect/get with a flash toast, as 303 See Other (the follow-up is always a GET). */
async function seeOther(context: AppContext, to: string, flash: Flash): Promise<never> {
  const response = await redirectWithFlash(context, to, flash);
  throw new Response(null, { status: 303, headers: response.headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const params = listParams(new URL(request.url));
  const form = await readForm(request);
  const intent = form.get("intent");
  switch (intent) {
    case Intent.CloseOrder:
    case Intent.CancelOrder: {
      const input = parseFields(OrderActionSchema, form);
      if (!input.ok) return seeOther(context, listHref(params), { kind: "error", message: "errors.not_found" });
      const id = input.value.id;
      const result = intent === Intent.CloseOrder ? await closeMyOrder(context, user.id, id) : await cancelMyOrder(context, user.id, id);
      if (!result.ok)
        return seeOther(context, result.errors.form === "errors.not_found" ? listHref(params) : listHref(params, { detail: id }), {
          kind: "error",
          message: result.errors.form ?? "errors.try_again",
        });
      return seeOther(context, listHref(params), {
        kind: "success",
        message: intent === Intent.CloseOrder ? "contract.closed" : "contract.cancelled",
      });
    }
    case Intent.SetStops: {
      const submission = submissionOf(StopsSchema, form);
      if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
      const command = stopsCommandOf(submission.value);
      const { id } = command;
      const result = await setMyStops(context, user.id, command);
      if (!result.ok) {
        const refusal = result.errors.form;
        if (refusal === "errors.not_found") return seeOther(context, listHref(params), { kind: "error", message: refusal });
        if (refusal === "errors.order_closed")
          return seeOther(context, listHref(params, { detail: id }), { kind: "error", message: refusal });
        return data({ result: replyWithErrors(submission, stopsErrorsOf(result.errors)) }, { status: 400 });
      }
      return seeOther(context, listHref(params, { detail: id }), { kind: "success", message: "contract.stops_saved" });
    }
    default:
      throw new Response("Unknown action", { status: 400 });
  }
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

/**
 * Infinite loading: the pages after the loader's, fetched with the route's own loader and
 * appended. They stay while the same list is revalidated and go when another list is shown.
 */
function useMorePages(d: LoaderData) {
  const fetcher = useFetcher<typeof loader>();
  const key = `${d.source}|${d.type}|${d.page}`;
  const [more, setMore] = useState<{
    key: string;
    pages: { page: number; lastPage: number; orders: OrderView[]; options: OptionView[] }[];
  }>({ key, pages: [] });
  const pages = more.key === key ? more.pages : [];
  const last = pages[pages.length - 1];
  const loadedPage = last?.page ?? d.page;
  const lastPage = last?.lastPage ?? d.lastPage;
  const consumed = useRef<unknown>(null);
  // The page this list asked for: Remix also re-runs a loaded fetcher when the page revalidates
  // (a refresh), and that answer must not be appended to the fresh first page.
  const requested = useRef<number | null>(null);
  useEffect(() => {
    const got = fetcher.data;
    if (!got || fetcher.state !== "idle" || consumed.current === got) return;
    consumed.current = got;
    if (got.source !== d.source || got.type !== d.type || requested.current !== got.page) return;
    requested.current = null;
    setMore((prev) => {
      const list = prev.key === key ? prev.pages : [];
      const expected = (list[list.length - 1]?.page ?? d.page) + 1;
      if (got.page !== expected) return prev;
      return { key, pages: [...list, { page: got.page, lastPage: got.lastPage, orders: got.orders, options: got.options }] };
    });
  }, [fetcher.data, fetcher.state, key, d.source, d.type, d.page]);
  const loading = fetcher.state !== "idle";
  const hasMore = loadedPage < lastPage;
  const { source, type } = d;
  const loadMore = useCallback(() => {
    if (loading || !hasMore) return;
    requested.current = loadedPage + 1;
    fetcher.load(listHref({ source, type, page: loadedPage + 1 }));
  }, [loading, hasMore, fetcher, source, type, loadedPage]);
  const reset = useCallback(() => {
    requested.current = null;
    setMore({ key, pages: [] });
  }, [key]);
  const extra = pages.flatMap((p) => p.orders);
  const extraOptions = pages.flatMap((p) => p.options);
  return { extra, extraOptions, hasMore, loading, loadMore, reset };
}

/** Loads the next page when the sentinel scrolls into view (again after each page, if it still shows). */
function Sentinel({ onVisible, active }: { onVisible: () => void; active: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || !active || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) onVisible();
      },
      { rootMargin: "200px 0px" },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [onVisible, active]);
  return <div ref={ref} className="sentinel" aria-hidden="true" />;
}

export default function Orders() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const root = useRootData();
  const served = useServes();
  const locale = root?.locale ?? "en-US";
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const params: ListParams = { source: d.source, type: d.type, page: d.page };
  const tabs = d.source === "1" ? FUTURE_TABS : CONTRACT_TABS;
  const contract = d.source === "0";
  const more = useMorePages(d);

  // the sheet closed by the server (spec §4: a closed push closes the order's open sheet)
  const [notice, setNotice] = useState<string | null>(null);
  const detailRef = useRef(d.detail);
  detailRef.current = d.detail;
  const listRef = useRef(params);
  listRef.current = params;
  const onClosed = useCallback(
    (ids: number[]) => {
      const open = detailRef.current;
      if (open && ids.includes(open.id) && (open.status === ORDER_STATUS.Holding || open.status === ORDER_STATUS.Pending)) {
        setNotice("orders.closed_by_server");
        navigate(listHref(listRef.current), { replace: true, preventScrollReset: true });
      } else if (revalidator.state === "idle") {
        revalidator.revalidate();
      }
    },
    [navigate, revalidator],
  );
  const live = useLiveOrders(onClosed, d);

  // refresh: pull-to-refresh or the header button (lists start over at page 1, spec §4)
  const [refreshing, setRefreshing] = useState(false);
  const { reset: resetPages } = more;
  const refresh = useCallback(() => {
    resetPages();
    setRefreshing(true);
    // the list starts over at its top (else the sentinel, still in view, would load page 2 again)
    window.scrollTo({ top: 0 });
    if (listRef.current.page > 1) navigate(listHref({ ...listRef.current, page: 1 }), { replace: true });
    else revalidator.revalidate();
  }, [resetPages, revalidator, navigate]);
  useEffect(() => {
    if (!refreshing || revalidator.state !== "idle") return;
    const timer = setTimeout(() => setRefreshing(false), 500);
    return () => clearTimeout(timer);
  }, [refreshing, revalidator.state, d]);
  const { pull, handlers } = usePullToRefresh(refresh);

  // the future tab: the clock, the quotes of the predicted profits, and the settlements
  const now = useClock(d.renderedAt);
  const quotes = useQuotes(d.quotes);
  useOptionSettlements(d, now);

  const sheetOpen = d.detail !== null || d.option !== null || d.notFound;
  // with JavaScript the sheet is modal: what lies under it is inert (this runs before the focus below)
  const backgroundRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (backgroundRef.current) backgroundRef.current.inert = hydrated && sheetOpen;
  }, [hydrated, sheetOpen]);

  // focus: back to the order's row when its sheet closes
  const lastDetail = useRef<number | null>(null);
  useEffect(() => {
    const id = d.detail?.id ?? d.option?.id ?? null;
    if (id !== null) setNotice(null);
    if (id === null && lastDetail.current !== null) {
      document.querySelector<HTMLElement>(`a[data-order-id="${lastDetail.current}"]`)?.focus({ preventScroll: true });
    }
    lastDetail.current = id;
  }, [d.detail?.id, d.option?.id]);

  const open = d.type === "1" || d.type === "0";
  // appended pages may repeat an order that a refreshed first page now holds: each shows once
  const unique = new Map<number, OrderView>();
  for (const o of [...d.orders, ...more.extra]) if (!unique.has(o.id)) unique.set(o.id, o);
  const rows = [...unique.values()].filter((o) => !(open && live.closed.has(o.id))).map(live.apply);
  const uniqueOptions = new Map<number, OptionView>();
  for (const o of [...d.options, ...more.extraOptions]) if (!uniqueOptions.has(o.id)) uniqueOptions.set(o.id, o);
  const optionRows = [...uniqueOptions.values()];
  const listLength = contract ? rows.length : optionRows.length;
  const showTotal = contract && (d.type === "1" || d.type === "3");
  const total = d.type === "1" && live.total !== null ? live.total : d.allProfit;
  const detail = d.detail ? live.apply(d.detail) : null;
  const closeHref = listHref(params);
  const status = refreshing ? t("orders.refreshing") : notice ? t(notice) : "";

  return (
    <div className="page orders-page">
      <PageHeader
        title={t("tabs.order")}
        actions={
          <Link
            to={listHref({ ...params, page: 1 })}
            className="icon-button"
            aria-label={t("orders.refresh")}
            aria-busy={refreshing || undefined}
            replace
            preventScrollReset
            onClick={(e) => {
              if (!hydrated) return;
              e.preventDefault();
              refresh();
            }}
          >
            <ResetIcon />
          </Link>
        }
      />
      {sheetOpen ? (
        <OrderSheet
          order={detail}
          option={d.option}
          now={now}
          predicted={d.option ? livePrediction(d.option, hydrated ? quotes.get(d.option.code) : undefined) : null}
          params={params}
          confirm={d.confirm}
          closeHref={closeHref}
          locale={locale}
          constraint={d.constraint}
          lastResult={actionData?.result}
        />
      ) : null}
      <div ref={backgroundRef} className="orders-background">
        <nav className="segmented" aria-label={t("orders.source")}>
          <Link to="/order?source=0" replace aria-current={contract ? "page" : undefined} className={contract ? "active" : ""}>
            {t("trade.contract")}
          </Link>
          {served("/order?source=1") ? (
            <Link to="/order?source=1" replace aria-current={!contract ? "page" : undefined} className={!contract ? "active" : ""}>
              {t("trade.future")}
            </Link>
          ) : null}
        </nav>
        <nav className="category-tabs" aria-label={t("orders.status")}>
          {tabs.map((tab) => (
            <Link
              key={tab.type}
              to={`/order?source=${d.source}&type=${tab.type}`}
              replace
              aria-current={tab.type === d.type ? "page" : undefined}
              className={tab.type === d.type ? "chip active" : "chip"}
            >
              {t(tab.label)}
            </Link>
          ))}
        </nav>
        <div className="orders-status" role="status" aria-live="polite">
          {status ? <p className={notice && !refreshing ? "notice" : "muted small center"}>{status}</p> : null}
        </div>
        <section className="orders-list" aria-label={t(tabs.find((tab) => tab.type === d.type)!.label)} {...(hydrated ? handlers : {})}>
          <PullIndicator pull={pull} />
          {showTotal ? (
            <p className="orders-total">
              <span className="muted">{t(d.type === "1" ? "orders.floating_profit" : "orders.realised_profit")}</span>{" "}
              <span className={`num ${profitClass(total)}`}>{formatProfit(total, locale)}</span> <span className="unit">USD</span>
            </p>
          ) : null}
          {listLength === 0 ? (
            <EmptyState title={t("common.no_data")} />
          ) : (
            <>
              {contract ? (
                <ul className="order-list">
                  {rows.map((o) => (
                    <li key={o.id}>
                      <OrderRow order={o} to={listHref(params, { detail: o.id })} locale={locale} />
                    </li>
                  ))}
                </ul>
              ) : (
                <ul className="order-list">
                  {optionRows.map((o) => (
                    <li key={o.id}>
                      <OptionRow
                        option={o}
                        to={listHref(params, { detail: o.id })}
                        locale={locale}
                        now={now}
                        predicted={hydrated ? livePrediction(o, quotes.get(o.code)) : null}
                      />
                    </li>
                  ))}
                </ul>
              )}
              {hydrated ? (
                <>
                  <Sentinel onVisible={more.loadMore} active={more.hasMore && !more.loading} />
                  {more.hasMore ? (
                    <button
                      type="button"
                      className="button wide"
                      onClick={more.loadMore}
                      disabled={more.loading}
                      aria-busy={more.loading || undefined}
                    >
                      {more.loading ? <span className="spinner" aria-hidden="true" /> : null}
                      {t(more.loading ? "common.loading" : "orders.load_more")}
                    </button>
                  ) : (
                    <p className="muted small center">{t("common.no_more")}</p>
                  )}
                  {d.page > 1 ? <Pager params={params} lastPage={d.lastPage} withNext={false} /> : null}
                </>
              ) : (
                <>
                  {d.page >= d.lastPage ? <p className="muted small center">{t("common.no_more")}</p> : null}
                  {d.lastPage > 1 ? <Pager params={params} lastPage={d.lastPage} withNext /> : null}
                </>
              )}
            </>
          )}
        </section>
      </div>
    </div>
  );
}

/**
 * The future tab follows the settlements: a MICRO_SETTLED push of one of the user's options
 * reloads the page's data at once (the option moves to the closed list); and 1 s after an open
 * option's time is up (spec §4), the page reloads too (again every few seconds until it moved).
 */
function useOptionSettlements(d: LoaderData, now: number) {
  const client = useLiveClient();
  const { revalidate, state } = useRevalidator();
  const ref = useRef({ state, last: 0 });
  ref.current.state = state;
  const future = d.source === "1";
  useEffect(() => {
    if (!client || !future) return;
    return client.subscribe("MICRO_SETTLED", () => {
      if (ref.current.state !== "idle") return;
      ref.current.last = Date.now();
      revalidate();
    });
  }, [client, future, revalidate]);
  const watched = [...d.options, ...(d.option ? [d.option] : [])].filter((o) => o.status === 1);
  const due = watched.length > 0 ? Math.min(...watched.map((o) => o.expiresAt)) + 1000 : null;
  useEffect(() => {
    if (due === null || now < due || state !== "idle" || now - ref.current.last < 3000) return;
    ref.current.last = now;
    revalidate();
  }, [due, now, state, revalidate]);
}

/** Plain previous / next links (the paging without JavaScript). */
function Pager({ params, lastPage, withNext }: { params: ListParams; lastPage: number; withNext: boolean }) {
  const { t } = useTranslation();
  return (
    <nav className="pager" aria-label={t("orders.pages")}>
      {params.page > 1 ? (
        <Link to={listHref({ ...params, page: Math.min(params.page - 1, lastPage) })} className="button" rel="prev">
          {t("orders.previous_page")}
        </Link>
      ) : (
        <span />
      )}
      <span className="muted small num">{t("orders.page_of", { page: params.page, pages: lastPage })}</span>
      {withNext && params.page < lastPage ? (
        <Link to={listHref({ ...params, page: params.page + 1 })} className="button" rel="next">
          {t("orders.next_page")}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/**
 * The order's bottom sheet (a page section without JavaScript): its figures, then its actions,
 * or the confirm step of one. With JavaScript it is modal: focus moves in and stays, Escape or
 * the backdrop closes it.
 */
function OrderSheet({
  order,
  option,
  now,
  predicted,
  params,
  confirm,
  closeHref,
  locale,
  constraint,
  lastResult,
}: {
  order: OrderView | null;
  option: OptionView | null;
  now: number;
  predicted: number | null;
  params: ListParams;
  confirm: Confirm | null;
  closeHref: string;
  locale: string;
  constraint: LoaderData["constraint"];
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const sheetRef = useRef<HTMLElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const close = () => navigate(closeHref, { replace: true, preventScrollReset: true });
  const focusKey = `${order?.id ?? option?.id ?? "none"}|${confirm ?? ""}`;
  useEffect(() => {
    if (!hydrated) return;
    const step = sheetRef.current?.querySelector<HTMLElement>("[data-autofocus]");
    if (step) step.focus();
    else headingRef.current?.focus({ preventScroll: true });
  }, [hydrated, focusKey]);
  const onKeyDown = (e: KeyboardEvent) => {
    if (hydrated) sheetKeyDown(e, sheetRef.current, close);
  };

  const detailHref = order ? listHref(params, { detail: order.id }) : closeHref;
  return (
    <div className="sheet-layer">
      {hydrated ? <div className="sheet-backdrop" aria-hidden="true" onClick={close} /> : null}
      <section
        ref={sheetRef}
        className="sheet"
        role="dialog"
        aria-modal={hydrated || undefined}
        aria-labelledby="order-sheet-title"
        onKeyDown={onKeyDown}
      >
        <header className="sheet-head">
          <h2 id="order-sheet-title" ref={headingRef} tabIndex={-1}>
            {t("orders.detail")}
          </h2>
          <Link to={closeHref} className="icon-button" aria-label={t("orders.close_sheet")} replace preventScrollReset>
            <CloseIcon />
          </Link>
        </header>
        {option ? (
          <OptionDetail option={option} locale={locale} now={now} predicted={predicted} />
        ) : order ? (
          <>
            <OrderDetail order={order} locale={locale} />
            {confirm ? (
              <ConfirmStep order={order} confirm={confirm} action={detailHref} backHref={detailHref} locale={locale} />
            ) : order.status === ORDER_STATUS.Holding ? (
              <>
                <Link
                  to={listHref(params, { detail: order.id, confirm: "close" })}
                  className="button danger wide"
                  replace
                  preventScrollReset
                >
                  {t("orders.close_position")}
                </Link>
                <StopsForm
                  key={`${order.id}|${order.stopLoss}|${order.takeProfit}`}
                  order={order}
                  action={detailHref}
                  constraint={constraint}
                  lastResult={lastResult}
                />
              </>
            ) : order.status === ORDER_STATUS.Pending ? (
              <Link
                to={listHref(params, { detail: order.id, confirm: "cancel" })}
                className="button danger wide"
                replace
                preventScrollReset
              >
                {t("orders.cancel_order")}
              </Link>
            ) : null}
          </>
        ) : (
          <p className="notice warn">{t("orders.not_found")}</p>
        )}
      </section>
    </div>
  );
}

/** What closing or cancelling will do, with Confirm (the POST) and Back (to the sheet). */
function ConfirmStep({
  order,
  confirm,
  action,
  backHref,
  locale,
}: {
  order: OrderView;
  confirm: Confirm;
  action: string;
  backHref: string;
  locale: string;
}) {
  const { t } = useTranslation();
  const closing = confirm === "close";
  return (
    <section
      id={CONFIRM_ID}
      className="card confirm-card"
      role="alertdialog"
      aria-labelledby="order-confirm-title"
      aria-describedby="order-confirm-desc"
    >
      <h3 id="order-confirm-title" tabIndex={-1} data-autofocus>
        {t(closing ? "orders.close_confirm_title" : "orders.cancel_confirm_title")}
      </h3>
      <p id="order-confirm-desc">{t(closing ? "orders.close_confirm" : "orders.cancel_confirm")}</p>
      <dl className="details confirm-figures">
        {closing ? (
          <>
            <div>
              <dt>{t("orders.current_price")}</dt>
              <dd className="num">{order.markPrice ? formatSteps(order.markPrice, order.precision, locale) : "—"}</dd>
            </div>
            <div>
              <dt>{t("orders.estimated_profit")}</dt>
              <dd className={`num ${profitClass(order.profit)}`}>{formatProfit(order.profit, locale)}</dd>
            </div>
            <div>
              <dt>{t("orders.margin_returned")}</dt>
              <dd className="num">{formatAmount(order.margin, locale)}</dd>
            </div>
          </>
        ) : (
          <div>
            <dt>{t("orders.refund")}</dt>
            <dd className="num">{formatAmount(order.margin + order.fee, locale)}</dd>
          </div>
        )}
      </dl>
      <Form method="post" action={action} className="tiles" preventScrollReset>
        <input type="hidden" name="id" value={order.id} />
        <Link to={backHref} className="button" replace preventScrollReset>
          {t("common.back")}
        </Link>
        <SubmitButton intent={closing ? Intent.CloseOrder : Intent.CancelOrder} className="button primary">
          {t(closing ? "orders.confirm_close" : "orders.confirm_cancel")}
        </SubmitButton>
      </Form>
    </section>
  );
}

/** Stop-loss and take-profit of a holding position (empty or 0 = none); the server's errors show by the fields. */
function StopsForm({
  order,
  action,
  constraint,
  lastResult,
}: {
  order: OrderView;
  action: string;
  constraint: LoaderData["constraint"];
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation();
  const level = (steps: number) => (steps > 0 ? stepsToDecimal(steps, order.precision) : "");
  const [form, fields] = useForm({
    id: `stops-${order.id}`,
    lastResult,
    constraint,
    defaultValue: { id: String(order.id), stop_loss_price: level(order.stopLoss), target_profit_price: level(order.takeProfit) },
  });
  return (
    <Form
      method="post"
      action={action}
      className="form stops-form"
      preventScrollReset
      {...getFormProps(form)}
      noValidate={false}
      aria-labelledby={`${form.id}-title`}
    >
      <h3 id={`${form.id}-title`}>{t("orders.stops_title")}</h3>
      <FormErrors form={form} />
      <input type="hidden" name="id" value={order.id} />
      <Field
        field={fields.stop_loss_price}
        label={t("orders.stop_loss_price")}
        inputMode="decimal"
        autoComplete="off"
        hint={t("orders.stops_hint")}
      />
      <Field
        field={fields.target_profit_price}
        label={t("orders.take_profit_price")}
        inputMode="decimal"
        autoComplete="off"
        hint={t("orders.stops_hint")}
      />
      <SubmitButton intent={Intent.SetStops}>{t("orders.save_stops")}</SubmitButton>
    </Form>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
