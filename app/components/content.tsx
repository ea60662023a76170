/**
 * Pieces of the content screens: stored bodies as text paragraphs (never HTML), and the one
 * customer-service button every screen uses (home header, home shortcut, user centre row).
 */
import { Link } from "@remix-run/react";
import { useRef, type ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { useServes } from "~/lib/root-data";
import { CopyButton } from "~/components/copy-button";
import { useHydrated } from "~/components/hydrated";
import { httpUrl, type ChatButton } from "~/domain/content";

/** A body's paragraphs (textParagraphs, made on the server: stored markup never reaches the page) as text. */
export function TextBody({ paragraphs }: { paragraphs: string[] }) {
  return (
    <div className="text-body">
      {paragraphs.map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </div>
  );
}

/** The support link itself: a link when it is http(s), otherwise selectable text; and copy. */
export function SupportLink({ link }: { link: string }) {
  const { t } = useTranslation();
  const url = httpUrl(link);
  return (
    <>
      <p className="address-text">
        {url ? (
          <a href={url.href} target="_blank" rel="noopener noreferrer">
            {link}
          </a>
        ) : (
          <code>{link}</code>
        )}
      </p>
      <div className="input-row copy-row">
        <CopyButton text={link} label={t("content.copy_link")} doneLabel={t("content.copy_success")} />
      </div>
    </>
  );
}

/**
 * Customer service, decided by the company's setting (services/content/pages.server supportChat):
 * the dialog mode opens a dialog in place with JavaScript (a page without it), the link mode
 * goes straight to the link, and the chat page is loaded as a whole document so its response's
 * CSP (which allows the chat frame's host) applies.
 */
export function ChatLink({
  chat,
  className,
  label,
  children,
}: {
  chat: ChatButton;
  className?: string;
  label?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const served = useServes();
  const dialog = useRef<HTMLDialogElement>(null);
  if (chat.kind === "navigate")
    return (
      <a href={chat.link} className={className} aria-label={label} rel="noopener noreferrer" data-chat="navigate">
        {children}
      </a>
    );
  if (chat.kind === "dialog" && hydrated)
    return (
      <>
        <button type="button" className={className} aria-label={label} onClick={() => dialog.current?.showModal()} data-chat="dialog">
          {children}
        </button>
        <dialog ref={dialog} className="card chat-dialog" aria-labelledby="chat-dialog-title">
          <h2 id="chat-dialog-title">{t("content.chat_title")}</h2>
          <p className="muted">{t("content.chat_dialog_text")}</p>
          <SupportLink link={chat.link} />
          <form method="dialog">
            <button type="submit" className="button">
              {t("content.close")}
            </button>
          </form>
        </dialog>
      </>
    );
  if (!served("/mine/chat")) return null;
  return (
    <Link to="/mine/chat" className={className} aria-label={label} reloadDocument data-chat={chat.kind}>
      {children}
    </Link>
  );
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A publication date (UTC, so the server and the browser write the same text). */
export function PublishedDate({ ms, locale }: { ms: number; locale: string }) {
  let f = dateFormats.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
    dateFormats.set(locale, f);
  }
  return (
    <time dateTime={new Date(ms).toISOString()} className="num">
      {f.format(ms)}
    </time>
  );
}

/** The system share sheet (with JavaScript, where the browser has one). */
export function ShareButton({ url, title }: { url: string; title: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  if (!hydrated || typeof navigator.share !== "function") return null;
  return (
    <button
      type="button"
      className="button small-button"
      onClick={() => {
        navigator.share({ url, title }).catch(() => {});
      }}
    >
      {t("content.share")}
    </button>
  );
}
