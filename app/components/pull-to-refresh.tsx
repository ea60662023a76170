/**
 * Pull-to-refresh (spec §4 paged lists): a touch drag down while the page is scrolled to the top
 * refreshes the list. Spread `handlers` on the list's container once hydrated and render
 * <PullIndicator pull={pull} /> at its top; lists also keep a visible refresh control, so the
 * gesture is a shortcut, never the only way.
 */
import { useRef, useState, type TouchEvent } from "react";
import { useTranslation } from "~/i18n/react";

export const PULL_TRIGGER = 72;

export function usePullToRefresh(onRefresh: () => void) {
  const start = useRef<number | null>(null);
  const [pull, setPull] = useState(0);
  const onTouchStart = (e: TouchEvent) => {
    start.current = window.scrollY <= 0 && e.touches.length === 1 ? e.touches[0]!.clientY : null;
  };
  const onTouchMove = (e: TouchEvent) => {
    if (start.current === null) return;
    const dy = e.touches[0]!.clientY - start.current;
    setPull(dy > 0 && window.scrollY <= 0 ? Math.min(dy, PULL_TRIGGER * 1.5) : 0);
  };
  const onTouchEnd = () => {
    if (start.current !== null && pull >= PULL_TRIGGER) onRefresh();
    start.current = null;
    setPull(0);
  };
  return { pull, handlers: { onTouchStart, onTouchMove, onTouchEnd, onTouchCancel: onTouchEnd } };
}

/** The strip that grows while pulling ("pull to refresh" / "release to refresh"). */
export function PullIndicator({ pull }: { pull: number }) {
  const { t } = useTranslation();
  if (pull <= 0) return null;
  return (
    <div className="ptr" aria-hidden="true" style={{ height: `${Math.round(pull / 2)}px` }}>
      {t(pull >= PULL_TRIGGER ? "orders.release_to_refresh" : "orders.pull_to_refresh")}
    </div>
  );
}
