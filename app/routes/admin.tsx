/**
 * The operator console's frame (issue 10 §6): every page under /admin answers 404 to anyone who
 * is not a signed-in operator (each child loader and action calls requireOperator too, since
 * Remix runs loaders in parallel). Review queues are plain forms: they work without JavaScript.
 */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { RouteErrorBoundary } from "~/components/route-error";
import { queueCounts, requireOperator, stepUpUntil } from "~/services/operator.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "copy", "engine", "feedback", "fund", "loan", "options", "publish", "settings"] };

export const meta = titled("admin.title");

export async function loader({ context }: LoaderFunctionArgs) {
  const user = await requireOperator(context);
  const [counts, until] = await Promise.all([queueCounts(context), stepUpUntil(context)]);
  return { operator: user.email ?? user.uid, counts, stepUpUntil: until };
}

export default function AdminLayout() {
  const { t } = useTranslation();
  const { operator, counts } = useLoaderData<typeof loader>();
  const links = [
    { to: "/admin", label: t("admin.overview"), end: true, count: null },
    { to: "/admin/deposits", label: t("admin.deposits"), end: false, count: counts.deposits },
    { to: "/admin/withdrawals", label: t("admin.withdrawals"), end: false, count: counts.withdrawals },
    { to: "/admin/identity", label: t("admin.identity"), end: false, count: counts.identity },
    { to: "/admin/traders", label: t("copy.admin_traders"), end: false, count: counts.traders },
    { to: "/admin/loans", label: t("loan.admin_title"), end: false, count: counts.loans },
    { to: "/admin/funds", label: t("fund.admin_nav"), end: false, count: counts.funds },
    { to: "/admin/options", label: t("options.admin_nav"), end: false, count: null },
    { to: "/admin/news", label: t("publish.news"), end: false, count: null },
    { to: "/admin/announcements", label: t("publish.announcements"), end: false, count: null },
    { to: "/admin/feedback", label: t("feedback.admin_title"), end: false, count: counts.feedback },
    { to: "/admin/engine", label: t("engine.admin_nav"), end: false, count: counts.engine },
    { to: "/admin/settings", label: t("settings.nav"), end: false, count: null },
  ];
  return (
    <div className="page admin">
      <header className="page-header">
        <span className="icon-spacer" />
        <h1>{t("admin.title")}</h1>
        <span className="muted small">{operator}</span>
      </header>
      <nav className="segmented admin-nav" aria-label={t("admin.title")}>
        {links.map((l) => (
          <NavLink key={l.to} to={l.to} end={l.end} prefetch="intent">
            {l.label}
            {l.count ? <span className="badge num">{l.count}</span> : null}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
