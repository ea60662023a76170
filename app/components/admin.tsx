/**
 * Pieces shared by the operator's console pages: the notices atop a money-moving queue, a list
 * item's one action, and a private image (served by /uploads/:id only to its owner and
 * operators). The review queues' own shape is components/review-queue.tsx.
 */
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "~/i18n/react";
import { SubmitButton } from "~/components/forms";
import { Intent } from "~/forms/intents";
import { translateMessage } from "~/lib/messages";

/**
 * The top of a money-moving queue: when approvals wait and the session has no fresh step-up, the
 * notice with the link to get one (back to this page after); and an error that belongs to no item.
 */
export function QueueNotices({
  needsStepUp,
  message = "admin.step_up_needed",
  from,
  error,
}: {
  needsStepUp: boolean;
  message?: string;
  from: string;
  error?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <>
      {needsStepUp ? (
        <p className="notice warn">
          {t(message)} <Link to={`/admin/verify?from=${encodeURIComponent(from)}`}>{t("admin.step_up_start")}</Link>
        </p>
      ) : null}
      {error ? (
        <p className="form-errors" role="alert">
          {translateMessage(t, error)}
        </p>
      ) : null}
    </>
  );
}

/** One action on one item of a console list (mark read, try again, send again): a plain POST of its id and intent. */
export function ItemAction({ id, intent, label }: { id: number; intent: Intent; label: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="id" value={String(id)} />
      <SubmitButton intent={intent} className="button">
        {label}
      </SubmitButton>
    </Form>
  );
}

export function PrivateImage({ uploadId, alt }: { uploadId: string; alt: string }) {
  const src = `/uploads/${encodeURIComponent(uploadId)}`;
  return (
    <a href={src} target="_blank" rel="noopener" className="private-image">
      <img src={src} alt={alt} loading="lazy" decoding="async" />
    </a>
  );
}
