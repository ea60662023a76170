/** User centre (spec §2): account label, UID, logout, assets card with hide/show, and the rows. */
import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import type { ComponentType } from "react";
import { useTranslation } from "~/i18n/react";
import {
  BellIcon,
  FeedbackIcon,
  ChatIcon,
  ChevronIcon,
  GiftIcon,
  GlobeIcon,
  IdIcon,
  LockIcon,
  LogoutIcon,
  MailIcon,
  ResetIcon,
  SettingsIcon,
  TransferIcon,
  WalletIcon,
} from "~/components/icons";
import { AssetsToggle, ThemeSwitch } from "~/components/preferences";
import { Balance, FundingButtons, Money } from "~/components/money";
import { languageInfo } from "~/i18n/config";
import { reviewStatusKey } from "~/domain/real-name";
import { shortAddress } from "~/domain/web3-address";
import { myReviewStatus } from "~/services/identity.server";
import { myAssets } from "~/services/account.server";
import { supportChatButton } from "~/services/content/pages.server";
import { ChatLink } from "~/components/content";
import { myDemoStartingBalances, resetMyDemo } from "~/services/demo.server";
import { readHideAssets } from "~/services/preferences.server";
import { readForm } from "~/lib/http.server";
import { DemoResetSchema } from "~/forms/account";
import { parseFields } from "~/forms/parse";
import { Intent } from "~/forms/intents";
import { RouteErrorBoundary } from "~/components/route-error";
import { redirectWithFlash, requireUser, valueOf } from "~/services/web.server";
import { useRootData, useServes } from "~/lib/root-data";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["accounts", "admin", "content", "deposit", "feedback", "home", "identity", "user", "wallet"] };

export const meta = titled("tabs.user");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(context, request);
  const [assets, review] = await Promise.all([myAssets(context, user.id), myReviewStatus(context, user.id)]);
  const b = await valueOf(context, request, assets);
  return {
    user: { uid: user.uid, email: user.email, mobile: user.mobile, isDemo: user.isDemo, wallet: shortAddress(user.wallet) },
    total: b.total,
    accounts: b.accounts.map((a) => ({ kind: a.kind, balance: a.balance, lockBalance: a.lockBalance })),
    hideAssets: await readHideAssets(request),
    confirmReset: user.isDemo && new URL(request.url).searchParams.get("confirm") === Intent.ResetDemo,
    // the starting balances a reset restores (null where the backend keeps them: not shown)
    startingBalances: user.isDemo ? await myDemoStartingBalances(context) : null,
    language: languageInfo(context.lang).label,
    realName: reviewStatusKey(await valueOf(context, request, review)),
    chat: await supportChatButton(context, user),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(context, request);
  if (!parseFields(DemoResetSchema, await readForm(request)).ok) throw new Response("Unknown action", { status: 400 });
  const reset = await resetMyDemo(context, user);
  if (!reset.ok) return redirectWithFlash(context, "/user", { kind: "error", message: reset.errors.form ?? "errors.try_again" });
  return redirectWithFlash(context, "/user", { kind: "success", message: "user.demo_reset_done" });
}

interface RowProps {
  to: string;
  label: string;
  Icon: ComponentType;
  value?: string;
}

function Row({ to, label, Icon, value }: RowProps) {
  // upstream mode leaves out what it does not serve yet (lib/upstream-areas.ts)
  if (!useServes()(to.split("?")[0]!)) return null;
  return (
    <li>
      <Link to={to} className="row">
        <Icon />
        <span className="row-label">{label}</span>
        {value ? <span className="row-value">{value}</span> : null}
        <ChevronIcon />
      </Link>
    </li>
  );
}

export default function UserCentre() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const root = useRootData();
  const locale = root?.locale ?? "en-US";
  const label = data.user.isDemo ? t("user.mock_account") : (data.user.email ?? data.user.mobile ?? data.user.wallet);
  return (
    <div className="page">
      <header className="user-header">
        <div className="avatar" aria-hidden="true">
          {(label || "U").slice(0, 1).toUpperCase()}
        </div>
        <div className="user-id">
          <p className="user-label">{label}</p>
          <p className="muted small">
            {t("user.uid")}: <span className="num">{data.user.uid}</span>
          </p>
        </div>
        <Form method="post" action="/logout">
          <button type="submit" className="icon-button" aria-label={t("user.logout")}>
            <LogoutIcon />
          </button>
        </Form>
      </header>

      <section className="card assets-card" aria-labelledby="assets-title">
        <div className="card-title-row">
          <h2 id="assets-title">{t("user.total_assets")}</h2>
          <AssetsToggle hidden={data.hideAssets} />
        </div>
        <p className="big-number num">
          {data.hideAssets ? "******" : <Balance value={data.total} locale={locale} />} <span className="unit">USD</span>
        </p>
        <dl className="account-grid">
          {data.accounts.map((a) => (
            <div key={a.kind}>
              <dt>{t(`accounts.${a.kind}`)}</dt>
              <dd className="num">{data.hideAssets ? "****" : <Balance value={a.balance + a.lockBalance} locale={locale} />}</dd>
            </div>
          ))}
        </dl>
        <FundingButtons />
      </section>

      {data.confirmReset ? (
        <section className="card confirm-card" role="alertdialog" aria-labelledby="reset-title" aria-describedby="reset-desc">
          <h2 id="reset-title">{t("user.reset_mock")}</h2>
          <p id="reset-desc">{t("user.reset_mock_confirm")}</p>
          {data.startingBalances ? (
            <dl className="account-grid">
              {(["funding", "options", "contract"] as const).map((kind) => (
                <div key={kind}>
                  <dt>{t(`accounts.${kind}`)}</dt>
                  <dd className="num">
                    <Money value={data.startingBalances![kind]} locale={locale} />
                  </dd>
                </div>
              ))}
            </dl>
          ) : null}
          <Form method="post" className="tiles">
            <input type="hidden" name="intent" value={Intent.ResetDemo} />
            <Link to="/user" className="button" replace>
              {t("common.cancel")}
            </Link>
            <button type="submit" className="button primary">
              {t("common.confirm")}
            </button>
          </Form>
        </section>
      ) : data.user.isDemo ? (
        <section className="card">
          <Link to={`/user?confirm=${Intent.ResetDemo}`} className="row">
            <ResetIcon />
            <span className="row-label">{t("user.reset_mock")}</span>
            <span className="row-value">{t("user.reset_mock_hint")}</span>
          </Link>
        </section>
      ) : null}

      <nav className="card" aria-label={t("user.menu")}>
        <ul className="rows">
          <Row to="/mine/wallet" label={t("user.wallet")} Icon={WalletIcon} />
          <Row to="/mine/transfer" label={t("user.transfer")} Icon={TransferIcon} />
          <Row to="/mine/auth" label={t("user.real_name")} Icon={IdIcon} value={t(data.realName)} />
          <Row to="/mine/invite" label={t("user.invite")} Icon={GiftIcon} />
          {/* a wallet user has no password to change */}
          {data.user.wallet && !data.user.email && !data.user.mobile ? null : (
            <Row to="/mine/password" label={t("user.reset_password")} Icon={LockIcon} />
          )}
          <li>
            <ChatLink chat={data.chat} className="row">
              <ChatIcon />
              <span className="row-label">{t("user.chat")}</span>
              <ChevronIcon />
            </ChatLink>
          </li>
          <Row to="/mine/email" label={t("user.company_email")} Icon={MailIcon} />
          <Row to="/mine/announcement" label={t("user.announcements")} Icon={BellIcon} />
          <Row to="/feedback" label={t("feedback.title")} Icon={FeedbackIcon} />
          <Row to="/language" label={t("user.language")} Icon={GlobeIcon} value={data.language} />
          <Row to="/mine/system" label={t("user.settings")} Icon={SettingsIcon} />
          <li>
            <ThemeSwitch />
          </li>
        </ul>
      </nav>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
