/** The console's overview: what waits in each review queue, and the state of this session's step-up. */
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { RouteErrorBoundary } from "~/components/route-error";
import { useRootData } from "~/lib/root-data";
import { queueCounts, requireOperator, stepUpUntil } from "~/services/operator.server";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "copy", "engine", "feedback", "fund", "loan"] };

export const meta = titled("admin.overview", { console: true });

export async function loader({ context }: LoaderFunctionArgs) {
  await requireOperator(context);
  const [counts, until] = await Promise.all([queueCounts(context), stepUpUntil(context)]);
  return { counts, stepUpUntil: until };
}

export default function AdminOverview() {
  const { t } = useTranslation();
  const { counts, stepUpUntil: until } = useLoaderData<typeof loader>();
  const locale = useRootData()?.locale ?? "en-US";
  const queues = [
    { to: "/admin/deposits", label: t("admin.deposits"), count: counts.deposits },
    { to: "/admin/withdrawals", label: t("admin.withdrawals"), count: counts.withdrawals },
    { to: "/admin/identity", label: t("admin.identity"), count: counts.identity },
    { to: "/admin/traders", label: t("copy.admin_traders"), count: counts.traders },
    { to: "/admin/loans", label: t("loan.admin_title"), count: counts.loans },
    { to: "/admin/funds", label: t("fund.admin_nav"), count: counts.funds },
    { to: "/admin/feedback", label: t("feedback.admin_title"), count: counts.feedback },
    { to: "/admin/engine", label: t("engine.parked_title"), count: counts.engine },
  ];
  return (
    <>
      <ul className="card rows">
        {queues.map((q) => (
          <li key={q.to}>
            <Link to={q.to} className="row">
              <span className="row-label">{q.label}</span>
              <span className="row-value">{t("admin.waiting", { n: q.count })}</span>
            </Link>
          </li>
        ))}
      </ul>
      <section className="card">
        <h2>{t("admin.step_up")}</h2>
        <p className="muted">
          {until
            ? t("admin.step_up_until", { time: new Intl.DateTimeFormat(locale, { timeStyle: "short" }).format(new Date(until)) })
            : t("admin.step_up_needed")}
        </p>
        {until ? null : (
          <Link to="/admin/verify?from=%2Fadmin" className="button">
            {t("admin.step_up_start")}
          </Link>
        )}
      </section>
    </>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
