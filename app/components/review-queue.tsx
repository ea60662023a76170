/**
 * The operator's review queues (real-name, deposits, withdrawals, trader applications, fund
 * redemptions, loan KYC, loans, repayments) have one shape: a section headed by what waits, "nothing
 * waits" when empty, and a list of cards, each headed by the item, its facts and photos, then the
 * review form (approve, or reject with a reason; plain POST, works without JavaScript) with the
 * refusal of the last decision on top. Each card is a list item holding an article.
 */
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { SubmitButton } from "~/components/forms";
import { EmptyState } from "~/components/layout";
import { Intent } from "~/forms/intents";
import { translateMessage } from "~/lib/messages";

export function ReviewQueue({
  id,
  title,
  count,
  anchor,
  listClassName,
  children,
}: {
  /** The heading's id (the section is labelled by it). */
  id: string;
  title: string;
  count: number;
  /** The section's own id, for links to it. */
  anchor?: string;
  /** A class added to the list (a page's own layout of its cards). */
  listClassName?: string;
  /** The items: ReviewItem each. */
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section id={anchor} aria-labelledby={id} className="stack">
      <h2 id={id} className="section-title">
        {title}
      </h2>
      {count === 0 ? (
        <EmptyState title={t("admin.queue_empty")} />
      ) : (
        <ul className={listClassName ? `review-queue ${listClassName}` : "review-queue"}>{children}</ul>
      )}
    </section>
  );
}

/** One item waiting for review: a card headed by `heading` (the card is labelled by it). */
export function ReviewItem({
  id,
  heading,
  data,
  children,
}: {
  /** The heading's id, unique on the page. */
  id: string;
  heading: ReactNode;
  /** data-* attributes of the list item (e.g. the record's id). */
  data?: Record<`data-${string}`, string | number>;
  children: ReactNode;
}) {
  return (
    <li {...data}>
      <article className="card review-item" aria-labelledby={id}>
        <h3 id={id} className="record-head">
          {heading}
        </h3>
        {children}
      </article>
    </li>
  );
}

/**
 * The approve / reject form of one item: its id (and `subject` where one page reviews several
 * kinds), the reason (required to reject: the service says so next to it), the refusal of the
 * last decision, and the buttons; `children` are further actions between reject and approve.
 */
export function ReviewForm({
  id,
  name = "id",
  subject,
  reasonRequired = true,
  approveLabel,
  error,
  hint,
  fields,
  children,
}: {
  id: string | number;
  name?: string;
  subject?: string;
  reasonRequired?: boolean;
  approveLabel?: string;
  error?: string | null;
  hint?: string;
  /** Fields of the decision besides the reason (e.g. a payout's transaction id), before the buttons. */
  fields?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const reasonId = subject ? `reason-${subject}-${id}` : `reason-${id}`;
  return (
    <Form method="post" className="review-form">
      {subject ? <input type="hidden" name="subject" value={subject} /> : null}
      <input type="hidden" name={name} value={String(id)} />
      {error ? (
        <p className="form-errors" role="alert">
          {translateMessage(t, error)}
        </p>
      ) : null}
      <div className={error ? "field has-error" : "field"}>
        <label htmlFor={reasonId}>{t("admin.reason")}</label>
        <input id={reasonId} name="reason" maxLength={200} autoComplete="off" aria-invalid={error ? true : undefined} />
        {hint ? <p className="hint">{hint}</p> : null}
      </div>
      {fields}
      <div className="review-actions">
        <SubmitButton intent={Intent.Reject} className="button danger" formNoValidate={!reasonRequired}>
          {t("admin.reject")}
        </SubmitButton>
        {children}
        <SubmitButton intent={Intent.Approve}>{approveLabel ?? t("admin.approve")}</SubmitButton>
      </div>
    </Form>
  );
}
