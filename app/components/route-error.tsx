/**
 * The error boundary of a feature route: the page's frame stays (tabs, header), the failed part
 * says what happened in the user's language, and offers a way on. No error text reaches the user.
 */
import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { isAbortError } from "~/lib/abort";

/** How long a "service unavailable" page waits before it asks again. */
const RETRY_SECONDS = 10;

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
  if (status === 503)
    // the backend (upstream mode) or a dependency did not answer: the page asks again by itself,
    // without JavaScript too (a refresh pragma), and says so
    return (
      <div className="page narrow error-page" role="alert">
        <meta httpEquiv="refresh" content={String(RETRY_SECONDS)} />
        <h1>{t("errors.unavailable_retrying")}</h1>
        <p>
          <a className="button primary" href="">
            {t("common.retry")}
          </a>
        </p>
      </div>
    );
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
