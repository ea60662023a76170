/** Copy trading home (spec §2). Leaders arrive with the copy-trading issue. */
import { RouteErrorBoundary } from "~/components/route-error";
import { useTranslation } from "react-i18next";
import { EmptyState, PageHeader } from "~/components/layout";

export default function Follow() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <PageHeader title={t("tabs.follow")} />
      <EmptyState title={t("common.coming_soon")} />
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
