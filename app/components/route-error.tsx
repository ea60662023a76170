/**
 * The error boundary of a feature route: the page's frame stays (tabs, header), the failed part
 * says what happened in the user's language, and offers a way on. No error text reaches the user.
 */
import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { isAbortError } from "~/lib/abort";

export function RouteErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isAbortError(error)) {
    return (
      <div className="page narrow" aria-busy="true">
        <p className="muted">{t("common.loading")}</p>
      </div>
    );
  }
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (!isRouteErrorResponse(error)) console.error(error);
  const message =
    status === 404
      ? t("errors.not_found")
      : status === 413
        ? t("errors.too_large")
        : status < 500
          ? t("errors.bad_request")
          : t("errors.try_again");
  return (
    <div className="page narrow error-page" role="alert">
      <h1>{message}</h1>
      <p>
        <Link className="button primary" to="/" reloadDocument>
          {t("common.home")}
        </Link>
      </p>
    </div>
  );
}
