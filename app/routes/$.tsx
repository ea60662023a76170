/**
 * Paths nobody knows redirect to / (spec §2). Paths the spec names whose screens are not built
 * yet show a translated 'coming soon' page with a way back instead (issue 10 §7), so no row of
 * the user centre and no home shortcut silently lands on the home page. When a screen is built,
 * its route module takes over its path and it leaves this list.
 */
import { redirect, type LinksFunction, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { EmptyState, PageHeader } from "~/components/layout";
import { RouteErrorBoundary } from "~/components/route-error";
import { requireRealUser } from "~/services/web.server";
import walletStylesHref from "~/styles/wallet.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: walletStylesHref }];

interface Soon {
  /** The page's title (an i18n key). */
  title: string;
  /** Refused to demo users as the spec says (§5: invite). */
  realOnly?: boolean;
}

/** Known but unbuilt screens of spec §2 (those being built in parallel are not listed). */
export const COMING_SOON: Record<string, Soon> = {
  "/user/web3-login": { title: "soon.web3_login" },
};

/** Where the page's back link leads: the screen its path belongs to. */
function backOf(path: string): string {
  if (path.startsWith("/mine/")) return "/user";
  if (path.startsWith("/follow/")) return "/follow";
  return "/";
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const path = new URL(request.url).pathname.replace(/\/+$/, "") || "/";
  const soon = Object.hasOwn(COMING_SOON, path) ? COMING_SOON[path]! : null;
  if (!soon) throw redirect("/");
  if (soon.realOnly) await requireRealUser(context, request);
  return { title: soon.title, back: backOf(path) };
}

export const action = () => redirect("/");

export default function ComingSoon() {
  const { t } = useTranslation();
  const { title, back } = useLoaderData<typeof loader>();
  return (
    <div className="page narrow soon-page">
      <PageHeader title={t(title)} back={back} />
      <EmptyState title={t("soon.title")}>
        <p className="muted">{t("soon.text")}</p>
        <Link to={back} className="button primary">
          {t("soon.back")}
        </Link>
      </EmptyState>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
