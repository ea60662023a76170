/**
 * A trader's followers (spec §2 My follower, §3 Follower item; issue 11 §1): will-pay profit (the
 * trader's share of followers' realised profit not yet paid), total profit (2 decimals) and the
 * follower count, each with how it is computed, then the followers page by page with
 * pull-to-refresh and a refresh button (avatar,
 * nickname, return %, total revenue; green when ≥ 0, red below). Not a trader: back to the
 * application guide with the reason.
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { Figure, FollowTabs, Rate, SignedMoney, TraderAvatar } from "~/components/copy";
import { useHydrated } from "~/components/hydrated";
import { SubmitButton } from "~/components/forms";
import { EmptyState, PageHeader } from "~/components/layout";
import { PhotoInput } from "~/components/photo-input";
import { PullIndicator, usePullToRefresh } from "~/components/pull-to-refresh";
import { Money } from "~/components/money";
import { RouteErrorBoundary } from "~/components/route-error";
import { shareDecimalToPercent } from "~/domain/copy";
import { useRootData } from "~/lib/root-data";
import { AvatarSchema } from "~/forms/copy";
import { Intent } from "~/forms/intents";
import { parseFields } from "~/forms/parse";
import { setTraderAvatar } from "~/services/copy/traders.server";
import { myFollowers } from "~/services/copy/views.server";
import { readFormWithUploads, uploadFieldError, uploadIdOf } from "~/services/uploads.server";
import { redirectWithFlash, requireUser } from "~/services/web.server";
import copyStylesHref from "~/styles/copy.css";
import ordersStylesHref from "~/styles/orders.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "auth", "copy", "home", "orders", "upload"] };

export const meta = titled("copy.my_follower_title");

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: ordersStylesHref },
  { rel: "stylesheet", href: copyStylesHref },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const raw = new URL(request.url).searchParams.get("page") ?? "1";
  const result = await myFollowers(context, user.id, /^\d{1,5}$/.test(raw) ? Number(raw) : 1);
  if (!result.ok)
    throw await redirectWithFlash(context, "/follow/trader-apply", { kind: "error", message: result.errors.form ?? "copy.not_trader" });
  return result.value;
}

/**
 * The trader's picture: choose one (multipart without JavaScript; uploaded ahead with it) or
 * remove it. Refusals answer next to the field; success redirects back with a notice.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  let form: URLSearchParams;
  try {
    form = await readFormWithUploads(context, request, user.id, { avatar: "avatar" });
  } catch (error) {
    if (error instanceof Response && error.status === 413) return data({ avatarError: "errors.upload_too_large" }, { status: 413 });
    throw error;
  }
  // the picture may come twice (the file, and the upload made ahead): the first one given counts
  const command = parseFields(AvatarSchema, { intent: form.get("intent") ?? "", avatar: form.getAll("avatar").find(Boolean) ?? "" });
  if (!command.ok) return data({ avatarError: "errors.bad_request" }, { status: 400 });
  let uploadId: string | null = null;
  if (command.value.intent === Intent.SetAvatar) {
    const value = command.value.avatar ?? "";
    const refused = uploadFieldError(value);
    if (refused) return data({ avatarError: refused }, { status: 400 });
    uploadId = uploadIdOf(value);
    if (!uploadId) return data({ avatarError: "errors.upload_required" }, { status: 400 });
  }
  const result = await setTraderAvatar(context, user.id, uploadId);
  if (!result.ok)
    return data({ avatarError: result.errors.avatar ?? result.errors.form ?? "errors.bad_request" }, { status: result.status });
  return redirectWithFlash(context, "/follow/my-follower", {
    kind: "success",
    message: uploadId ? "copy.avatar_saved" : "copy.avatar_removed",
  });
}

export default function MyFollower() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const avatarError = useActionData<typeof action>()?.avatarError;
  const { pull, handlers } = usePullToRefresh(() => revalidator.revalidate());
  return (
    <div className="page">
      <PageHeader title={t("copy.my_follower_title")} />
      <FollowTabs isTrader />
      <section className="card" aria-labelledby="follower-summary">
        <h2 id="follower-summary" className="visually-hidden">
          {t("copy.my_follower_title")}
        </h2>
        <dl className="copy-figures summary">
          <Figure label={t("copy.will_pay")} explain={t("copy.explain_will_pay_share", { share: shareDecimalToPercent(d.profitShare) })}>
            <Money value={d.willPay} locale={locale} />
          </Figure>
          <Figure label={t("copy.total_profits")} explain={t("copy.explain_total_profits")}>
            <SignedMoney value={d.totalProfits} locale={locale} />
          </Figure>
          <Figure label={t("copy.followers")} explain={t("copy.explain_followers")}>
            <span className="num">{d.followNum}</span>
          </Figure>
        </dl>
      </section>
      <section className="card" aria-labelledby="avatar-title">
        <h2 id="avatar-title" className="section-title">
          {t("copy.avatar_title")}
        </h2>
        <div className="copy-card-head">
          <TraderAvatar src={d.avatar} name={t("copy.avatar_title")} />
          <p className="muted small">{t("copy.avatar_text")}</p>
        </div>
        <Form method="post" encType="multipart/form-data" className="form" replace>
          <input type="hidden" name="intent" value={Intent.SetAvatar} />
          <PhotoInput name="avatar" label={t("copy.avatar_choose")} purpose="avatar" error={avatarError} hint={t("upload.hint")} />
          <SubmitButton>{t("copy.avatar_save")}</SubmitButton>
        </Form>
        {d.avatar ? (
          <Form method="post" encType="multipart/form-data" replace>
            <input type="hidden" name="intent" value={Intent.RemoveAvatar} />
            <button type="submit" className="link-button">
              {t("copy.avatar_remove")}
            </button>
          </Form>
        ) : null}
      </section>
      <section aria-labelledby="follower-list" {...(hydrated ? handlers : {})}>
        <PullIndicator pull={pull} />
        <div className="card-title-row">
          <h2 id="follower-list" className="section-title">
            {t("copy.follower_list")}
          </h2>
          {hydrated ? (
            <button type="button" className="link-button" onClick={() => revalidator.revalidate()} disabled={revalidator.state !== "idle"}>
              {t("copy.refresh")}
            </button>
          ) : (
            // without JavaScript: the page itself, loaded again
            <Link to="/follow/my-follower" className="link-button">
              {t("copy.refresh")}
            </Link>
          )}
        </div>
        {d.data.length === 0 ? (
          <EmptyState title={t("copy.no_followers")} />
        ) : (
          <>
            <ul className="copy-cards">
              {d.data.map((f) => (
                <li key={f.followId} className="card copy-card follower-card">
                  <div className="copy-card-head">
                    <TraderAvatar src={f.avatar} name={f.nickname} />
                    <div className="copy-card-name">
                      <h3>{f.nickname}</h3>
                    </div>
                  </div>
                  <dl className="copy-figures">
                    <div>
                      <dt>{t("copy.return")}</dt>
                      <dd>
                        <Rate value={f.profitability} />
                      </dd>
                    </div>
                    <div>
                      <dt>{t("copy.revenue")}</dt>
                      <dd>
                        <SignedMoney value={f.totalProfits} locale={locale} />
                      </dd>
                    </div>
                  </dl>
                </li>
              ))}
            </ul>
            <nav className="pager" aria-label={t("copy.follower_list")}>
              {d.page > 1 ? <Link to={`/follow/my-follower?page=${d.page - 1}`}>{t("copy.prev_page")}</Link> : <span />}
              <span className="muted small num">
                {d.page} / {d.lastPage}
              </span>
              {d.page < d.lastPage ? <Link to={`/follow/my-follower?page=${d.page + 1}`}>{t("copy.next_page")}</Link> : <span />}
            </nav>
          </>
        )}
      </section>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
