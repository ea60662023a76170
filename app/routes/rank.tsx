/** Ranking (spec §2): leaders' cards; with none yet the empty state says coming soon. */
import { RouteErrorBoundary } from "~/components/route-error";
import { useTranslation } from "react-i18next";
import { EmptyState, PageHeader } from "~/components/layout";

export default function Rank() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t("tabs.rank")} />
      <EmptyState title={t("common.coming_soon")} />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
