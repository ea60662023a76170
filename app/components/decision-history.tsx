/**
 * The operator's decision history under a review queue ("Decided"): the latest decisions, each
 * with who decided and when. Two densities of one shape: a compact entry (what was decided, on
 * whom, the reason) where the queue's items are short (real-name requests, trader applications),
 * or the item's card again (deposits, withdrawals) where its figures matter afterwards.
 */
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import { OrderTime } from "~/components/orders";

export function DecisionHistory({
  id,
  count,
  empty,
  cards = false,
  listClassName,
  children,
}: {
  /** The heading's id (the section is labelled by it). */
  id: string;
  count: number;
  /** What is shown while nothing was decided. */
  empty: string;
  /** The entries are the items' cards (DecidedCard) rather than compact lines (DecisionEntry). */
  cards?: boolean;
  /** A class added to the list (a page's own layout of its cards). */
  listClassName?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const list = cards ? "review-queue" : "decision-list";
  return (
    <section className={cards ? "stack" : "card stack"} aria-labelledby={id}>
      <h2 id={id} className="section-title">
        {t("admin.history")}
      </h2>
      {count === 0 ? <p className="muted">{empty}</p> : <ul className={listClassName ? `${list} ${listClassName}` : list}>{children}</ul>}
    </section>
  );
}

/** Who decided, and when ("Decided by ops@example.com, 27 Nov 2026, 06:30"). */
export function DecidedBy({ operator, at, locale }: { operator: string; at: number; locale: string }) {
  const { t } = useTranslation();
  return (
    <span className="muted small decided-by">
      {t("identity.decided_by", { operator })} <OrderTime ms={at} locale={locale} />
    </span>
  );
}

/** A decision as the queues' services list it. */
export interface Decision {
  decision: "approve" | "reject" | string;
  reason?: string | null;
  operator: string;
  decidedAt: number;
}

/**
 * A compact entry: the decision (approved in green with `labels[0]`, rejected in red with
 * `labels[1]`), on whom (`children`), the reason given, who decided when.
 */
export function DecisionEntry({
  d,
  labels,
  locale,
  children,
}: {
  d: Decision;
  labels: [approved: string, rejected: string];
  locale: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const approved = d.decision === "approve";
  return (
    <li>
      <span>
        <span className={approved ? "decision-approve" : "decision-reject"}>{approved ? labels[0] : labels[1]}</span>
        {" · "}
        {children}
      </span>
      {d.reason ? <span className="muted">{t("identity.reason_was", { reason: d.reason })}</span> : null}
      <DecidedBy operator={d.operator} at={d.decidedAt} locale={locale} />
    </li>
  );
}

/** A decided item shown as its card again, with who decided when (nothing while it is undecided). */
export function DecidedCard({
  decidedBy,
  decidedAt,
  locale,
  data,
  children,
}: {
  decidedBy: string | null;
  decidedAt: number | null;
  locale: string;
  data?: Record<`data-${string}`, string | number>;
  children: ReactNode;
}) {
  return (
    <li className="card record" {...data}>
      {children}
      {decidedAt ? <DecidedBy operator={decidedBy ?? ""} at={decidedAt} locale={locale} /> : null}
    </li>
  );
}
