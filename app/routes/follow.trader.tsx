/**
 * A master trader's detail (spec §2 Copy trading, §4 Follow; issue 11 §1): the summary card, each
 * figure with how it is computed, the closed order history (paged), and a fixed bottom button:
 * follow (→ /follow/submit?id) when not followed, else unfollow through a confirm step that works
 * without JavaScript (?confirm=unfollow): the spec's warning, and the choice for open copies —
 * close them now, or let them run (they no longer follow the trader's close). A follower also
 * pauses / resumes copying, sets a copy stop-loss, and sees the copies that were skipped.
 * Unknown traders answer 404. Visitors may look; following needs a login.
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { Figure, Rate, SignedMoney, TraderAvatar } from "~/components/copy";
import { SubmitButton } from "~/components/forms";
import { EmptyState, PageHeader } from "~/components/layout";
import { Money } from "~/components/money";
import { OrderRow, orderViewOf } from "~/components/orders";
import { RouteErrorBoundary } from "~/components/route-error";
import { hundredthsToPercent } from "~/domain/contract";
import { FollowStatus, shareDecimalToPercent } from "~/domain/copy";
import { toDecimalString } from "~/domain/money";
import { CopyStopSchema, PauseSchema, UnfollowSchema } from "~/forms/copy";
import { Intent } from "~/forms/intents";
import { parseFields } from "~/forms/parse";
import { readForm } from "~/lib/http.server";
import { translateMessage } from "~/lib/messages";
import { useRootData } from "~/lib/root-data";
import { setCopyStopLoss, setFollowPaused, unfollow } from "~/services/copy/follows.server";
import { traderDetail } from "~/services/copy/queries.server";
import { copySkipsOf, traderClosedOrders } from "~/services/copy/views.server";
import { redirectWithFlash, requireUser } from "~/services/web.server";
import copyStylesHref from "~/styles/copy.css";
import ordersStylesHref from "~/styles/orders.css";
import { pageMeta } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "home", "orders", "trade"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: ordersStylesHref },
  { rel: "stylesheet", href: copyStylesHref },
];

const ID = /^\d{1,15}$/;
const CONFIRM_ID = "unfollow-confirm";

function notFound() {
  return new Response("Not Found", { status: 404 });
}

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) =>
  pageMeta(matches, (t) => ({ title: d?.trader.nickname ?? t("tabs.follow") }));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const idParam = url.searchParams.get("id") ?? "";
  if (!ID.test(idParam)) throw notFound();
  const traderId = Number(idParam);
  const user = await context.user();
  const pageParam = url.searchParams.get("page") ?? "1";
  const page = /^\d{1,5}$/.test(pageParam) ? Number(pageParam) : 1;
  const [detail, history] = await Promise.all([
    traderDetail(context, user?.id ?? null, traderId),
    traderClosedOrders(context, traderId, page),
  ]);
  if (!detail) throw notFound();
  const skips = detail.follow && user ? await copySkipsOf(context, user.id, detail.follow.id, 10) : [];
  return {
    trader: detail.trader,
    follow: detail.follow,
    skips,
    self: user?.id === traderId,
    signedIn: user !== null,
    confirm: url.searchParams.get("confirm") === "unfollow" && detail.follow !== null,
    history: { page: history.page, lastPage: history.lastPage, total: history.total, orders: history.orders.map((o) => orderViewOf(o)) },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  const url = new URL(request.url);
  const idParam = url.searchParams.get("id") ?? "";
  if (!ID.test(idParam)) throw notFound();
  const traderId = Number(idParam);
  const here = `/follow/trader?id=${traderId}`;
  const form = await readForm(request);
  const intent = form.get("intent");
  const bad = () => data({ field: "form", error: "errors.bad_request", value: "" }, { status: 400 });
  form.set("trader_id", String(traderId));
  switch (intent) {
    case Intent.Unfollow: {
      const command = parseFields(UnfollowSchema, form);
      if (!command.ok) return bad();
      const result = await unfollow(context, user, command.value);
      if (!result.ok) return redirectWithFlash(context, here, { kind: "error", message: result.errors.trader_id ?? "errors.try_again" });
      return redirectWithFlash(context, here, {
        kind: "success",
        message: result.value.failed > 0 ? "copy.unfollowed_some_open" : "copy.unfollowed",
      });
    }
    case Intent.PauseFollow:
    case Intent.ResumeFollow: {
      form.set("paused", intent === Intent.PauseFollow ? "1" : "0");
      const command = parseFields(PauseSchema, form);
      if (!command.ok) return bad();
      const result = await setFollowPaused(context, user, command.value);
      if (!result.ok) return redirectWithFlash(context, here, { kind: "error", message: result.errors.trader_id ?? "errors.try_again" });
      return redirectWithFlash(context, here, { kind: "success", message: command.value.paused ? "copy.paused" : "copy.resumed" });
    }
    case Intent.CopyStop: {
      const command = parseFields(CopyStopSchema, form);
      if (!command.ok) return bad();
      const result = await setCopyStopLoss(context, user, command.value);
      if (!result.ok) {
        if (result.errors.copy_stop_loss)
          return data(
            { field: "copy_stop_loss", error: result.errors.copy_stop_loss, value: form.get("copy_stop_loss") ?? "" },
            { status: 400 },
          );
        return redirectWithFlash(context, here, { kind: "error", message: result.errors.trader_id ?? "errors.try_again" });
      }
      return redirectWithFlash(context, here, { kind: "success", message: "copy.stop_saved" });
    }
    default:
      return bad();
  }
}

export default function TraderDetail() {
  const { t } = useTranslation();
  const { trader, follow, skips, self, signedIn, confirm, history } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const locale = useRootData()?.locale ?? "en-US";
  const here = `/follow/trader?id=${trader.userId}`;
  const suspended = trader.status === 0;
  return (
    <div className="page copy-detail">
      <PageHeader title={trader.nickname} back="/follow/follow-list" />
      <section className="card" aria-labelledby="trader-summary">
        <div className="copy-card-head">
          <TraderAvatar src={trader.avatar} name={trader.nickname} />
          <div className="copy-card-name">
            <h2 id="trader-summary">{trader.nickname}</h2>
            <span className="muted small">
              {t("copy.followers")}: <span className="num">{trader.followNum}</span>
              {follow ? (
                <span className="badge">{follow.status === FollowStatus.Paused ? t("copy.paused_label") : t("copy.following_label")}</span>
              ) : null}
            </span>
          </div>
        </div>
        {suspended ? (
          <p className="notice warn" role="status">
            {t("copy.suspended_notice", { reason: trader.suspendedReason })}
          </p>
        ) : null}
        <dl className="copy-figures summary">
          <Figure label={t("copy.three_week_rate")} explain={t("copy.explain_three_week_rate")}>
            <Rate value={trader.threeWeekRate} />
          </Figure>
          <Figure label={t("copy.three_week_win")} explain={t("copy.explain_three_week_win")}>
            <span className="num">{hundredthsToPercent(trader.threeWeekWin)}%</span>
          </Figure>
          <Figure label={t("copy.three_week_profit")} explain={t("copy.explain_three_week_profit")}>
            <SignedMoney value={trader.threeWeekProfit} locale={locale} />
          </Figure>
          <Figure label={t("copy.total_rate")} explain={t("copy.explain_total_rate")}>
            <Rate value={trader.totalRate} />
          </Figure>
          <Figure label={t("copy.total_profit")} explain={t("copy.explain_total_profit")}>
            <SignedMoney value={trader.totalProfit} locale={locale} />
          </Figure>
          <Figure label={t("copy.total_trade_num")} explain={t("copy.explain_total_trade_num")}>
            <span className="num">{trader.totalTradeNum}</span>
          </Figure>
          <Figure label={t("copy.profit_share")} explain={t("copy.explain_profit_share")}>
            <span className="num">{shareDecimalToPercent(trader.profitShare)}%</span>
          </Figure>
        </dl>
      </section>

      {follow ? (
        <section className="card" aria-labelledby="my-follow">
          <h2 id="my-follow">{t("copy.my_settings")}</h2>
          <dl className="copy-figures">
            <Figure label={t("copy.auto_open")}>
              <span className="num">{t("copy.auto_follow", { multiple: follow.multiple })}</span>
            </Figure>
            <Figure label={t("copy.max_amount")}>
              <Money value={follow.maxAmount} locale={locale} />
            </Figure>
          </dl>
          <Form method="post" action={here} className="row-form">
            {follow.status === FollowStatus.Paused ? (
              <SubmitButton intent={Intent.ResumeFollow} className="button">
                {t("copy.resume")}
              </SubmitButton>
            ) : (
              <SubmitButton intent={Intent.PauseFollow} className="button">
                {t("copy.pause")}
              </SubmitButton>
            )}
          </Form>
          <Form method="post" action={here} className="form">
            <div className="field">
              <label htmlFor="copy_stop_loss">{t("copy.copy_stop")}</label>
              <input
                id="copy_stop_loss"
                name="copy_stop_loss"
                inputMode="decimal"
                autoComplete="off"
                defaultValue={
                  actionData?.field === "copy_stop_loss"
                    ? actionData.value
                    : follow.copyStopLoss > 0
                      ? toDecimalString(follow.copyStopLoss, 2)
                      : ""
                }
                aria-invalid={actionData?.field === "copy_stop_loss" || undefined}
                aria-describedby="copy-stop-hint"
              />
              <p className="hint" id="copy-stop-hint">
                {t("copy.copy_stop_hint")}
              </p>
              {actionData?.field === "copy_stop_loss" ? (
                <p className="field-error" role="alert">
                  {translateMessage(t, actionData.error)}
                </p>
              ) : null}
            </div>
            <SubmitButton intent={Intent.CopyStop} className="button">
              {t("copy.save")}
            </SubmitButton>
          </Form>
          {skips.length > 0 ? (
            <>
              <h3>{t("copy.skips_title")}</h3>
              <ul className="rows">
                {skips.map((s) => (
                  <li key={s.id} className="row">
                    <span className="row-label">{translateMessage(t, s.reason)}</span>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </section>
      ) : null}

      <section aria-labelledby="trader-history">
        <h2 id="trader-history" className="section-title">
          {t("copy.history")}
        </h2>
        {history.orders.length === 0 ? (
          <EmptyState title={t("copy.no_history")} />
        ) : (
          <>
            <ul className="order-list">
              {history.orders.map((o) => (
                <li key={o.id}>
                  <OrderRow order={o} to={null} locale={locale} />
                </li>
              ))}
            </ul>
            <nav className="pager" aria-label={t("copy.history")}>
              {history.page > 1 ? <Link to={`${here}&page=${history.page - 1}`}>{t("copy.prev_page")}</Link> : <span />}
              <span className="muted small num">
                {history.page} / {history.lastPage}
              </span>
              {history.page < history.lastPage ? <Link to={`${here}&page=${history.page + 1}`}>{t("copy.next_page")}</Link> : <span />}
            </nav>
          </>
        )}
      </section>

      {confirm && follow ? (
        <section className="card confirm-card" id={CONFIRM_ID} aria-labelledby="unfollow-title">
          <h2 id="unfollow-title">{t("copy.unfollow_title", { name: trader.nickname })}</h2>
          <p className="notice warn">{t("copy.unfollow_warning")}</p>
          <Form method="post" action={here} className="form">
            <fieldset className="choice">
              <legend>{t("copy.unfollow_choice")}</legend>
              <label className="check-label">
                <input type="radio" name="open" value="keep" defaultChecked /> {t("copy.choice_keep")}
              </label>
              <label className="check-label">
                <input type="radio" name="open" value="close" /> {t("copy.choice_close")}
              </label>
            </fieldset>
            <div className="tiles">
              <Link to={here} className="button" replace>
                {t("common.cancel")}
              </Link>
              <SubmitButton intent={Intent.Unfollow} className="button danger">
                {t("copy.confirm_unfollow")}
              </SubmitButton>
            </div>
          </Form>
        </section>
      ) : null}

      {self ? null : (
        <div className="copy-bottom-bar">
          {follow ? (
            confirm ? null : (
              <Link to={`${here}&confirm=unfollow#${CONFIRM_ID}`} className="button danger wide" preventScrollReset>
                {t("copy.unfollow")}
              </Link>
            )
          ) : suspended ? null : (
            <Link
              to={
                signedIn ? `/follow/submit?id=${trader.userId}` : `/login?from=${encodeURIComponent(`/follow/submit?id=${trader.userId}`)}`
              }
              className="button primary wide"
            >
              {t("copy.follow")}
            </Link>
          )}
        </div>
      )}
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
