/**
 * Invite (spec §2 /mine/invite; §5 demo users refused): the user's invite link
 * (origin + '/register?invite_code=' + code, which works without JavaScript), its QR code drawn
 * on the server, copy and share buttons.
 */
import type { LinksFunction, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { ShareButton } from "~/components/content";
import { CopyButton } from "~/components/copy-button";
import { PageHeader } from "~/components/layout";
import { QrCode } from "~/components/qr-code";
import { RouteErrorBoundary } from "~/components/route-error";
import { inviteLink } from "~/domain/content";
import { qrPath } from "~/lib/qr.server";
import { requireRealUser } from "~/services/web.server";
import contentStylesHref from "~/styles/content.css";
import { titled } from "~/lib/meta";

/** The message sections this page renders (app/i18n/sections.ts). */
export const handle = { i18n: ["admin", "content", "deposit", "user", "wallet"] };

export const meta = titled("user.invite");

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStylesHref }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRealUser(context, request);
  const link = inviteLink(new URL(request.url).origin, user.inviteCode);
  return { code: user.inviteCode, link, qr: qrPath(link) };
}

export default function Invite() {
  const { t } = useTranslation();
  const d = useLoaderData<typeof loader>();
  return (
    <div className="page narrow content-page">
      <PageHeader title={t("user.invite")} back="/user" />
      <section className="card invite-card" aria-labelledby="invite-title">
        <h2 id="invite-title">{t("content.invite_title")}</h2>
        <p className="muted">{t("content.invite_text")}</p>
        <QrCode qr={d.qr} label={t("content.invite_qr")} text={d.link} />
        <dl className="details">
          <dt>{t("content.invite_code")}</dt>
          <dd className="num" translate="no">
            {d.code}
          </dd>
          <dt>{t("content.invite_link")}</dt>
          <dd className="address-text" translate="no">
            <a href={d.link} data-testid="invite-link">
              {d.link}
            </a>
          </dd>
        </dl>
        <div className="input-row copy-row">
          <CopyButton text={d.link} label={t("content.copy_link")} doneLabel={t("content.copy_success")} />
          <ShareButton url={d.link} title={t("content.share_title")} />
        </div>
      </section>
    </div>
  );
}

export const ErrorBoundary = RouteErrorBoundary;
