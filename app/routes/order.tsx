/** Order records (spec §2, login required): contract and future tabs with their status tabs. */
import { RouteErrorBoundary } from "~/components/route-error";
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EmptyState, PageHeader } from "~/components/layout";
import { requireUser } from "~/services/web.server";

const CONTRACT_TABS = [
  { type: "1", label: "orders.holding" },
  { type: "0", label: "orders.pending" },
  { type: "3", label: "orders.history" },
];
const FUTURE_TABS = [
  { type: "1", label: "orders.in_transaction" },
  { type: "3", label: "orders.closed" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(context, request);
  const url = new URL(request.url);
  const source = url.searchParams.get("source") === "1" ? "1" : "0";
  const tabs = source === "1" ? FUTURE_TABS : CONTRACT_TABS;
  const type = tabs.find((tab) => tab.type === url.searchParams.get("type"))?.type ?? "1";
  return { source, type };
}

export default function Orders() {
  const { t } = useTranslation();
  const { source, type } = useLoaderData<typeof loader>();
  const tabs = source === "1" ? FUTURE_TABS : CONTRACT_TABS;
  return (
    <div className="page">
      <PageHeader title={t("tabs.order")} />
      <nav className="segmented" aria-label={t("orders.source")}>
        <Link to="/order?source=0" replace aria-current={source === "0" ? "page" : undefined} className={source === "0" ? "active" : ""}>
          {t("trade.contract")}
        </Link>
        <Link to="/order?source=1" replace aria-current={source === "1" ? "page" : undefined} className={source === "1" ? "active" : ""}>
          {t("trade.future")}
        </Link>
      </nav>
      <nav className="category-tabs" aria-label={t("orders.status")}>
        {tabs.map((tab) => (
          <Link key={tab.type} to={`/order?source=${source}&type=${tab.type}`} replace aria-current={tab.type === type ? "page" : undefined} className={tab.type === type ? "chip active" : "chip"}>
            {t(tab.label)}
          </Link>
        ))}
      </nav>
      <EmptyState title={t("common.no_data")} />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
