/**
 * Live data in React. The root owns one LiveClient for the whole visit (created after
 * hydration); pages render their loader snapshot and these hooks only update it. When the feed
 * is stale or the socket is down for a while, the page's data is refreshed periodically.
 */
import { useFetchers, useNavigation, useRevalidator } from "@remix-run/react";
import { createContext, startTransition, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from "react";
import { useTranslation } from "~/i18n/react";
import type { LiveClient, LiveStatus } from "~/lib/live-client";
import type { Candle, Quote } from "~/domain/market";

/** How often a page refreshes its data while the live feed is down or stale. */
export const STALE_REFRESH_MS = 15_000;

const LiveContext = createContext<{ client: LiveClient | null; status: LiveStatus }>({ client: null, status: "connecting" });

export function LiveProvider({ ticket, children }: { ticket: string | null; children: ReactNode }) {
  const [client, setClient] = useState<LiveClient | null>(null);
  const [status, setStatus] = useState<LiveStatus>("connecting");
  const ticketRef = useRef(ticket);
  ticketRef.current = ticket;
  useEffect(() => {
    let live: LiveClient | null = null;
    let off: (() => void) | undefined;
    let cancelled = false;
    void import("~/lib/live-client").then(({ LiveClient }) => {
      if (cancelled) return;
      live = new LiveClient(ticketRef.current);
      off = live.onStatus(setStatus);
      setStatus(live.status);
      setClient(live);
    });
    return () => {
      cancelled = true;
      off?.();
      live?.close();
    };
  }, []);
  useEffect(() => client?.setTicket(ticket), [client, ticket]);
  return <LiveContext.Provider value={{ client, status }}>{children}</LiveContext.Provider>;
}

export function useLiveStatus() {
  return useContext(LiveContext).status;
}

/** The visit's live client (null before hydration), for hooks that subscribe to their own topics. */
export function useLiveClient(): LiveClient | null {
  return useContext(LiveContext).client;
}

/**
 * Quotes by code: the loader's snapshot, then every DAY_MARKET tick. Ticks render as transitions
 * (interruptible, in short slices): a tick never holds up a tap or a keypress.
 */
export function useQuotes(initial: Quote[]): Map<string, Quote> {
  const { client } = useContext(LiveContext);
  const [quotes, setQuotes] = useState(() => new Map(initial.map((q) => [q.Code, q])));
  useEffect(() => setQuotes(new Map(initial.map((q) => [q.Code, q]))), [initial]);
  useEffect(() => {
    if (!client) return;
    return client.subscribe("DAY_MARKET", (data) => {
      if (!Array.isArray(data)) return;
      const next = new Map((data as Quote[]).map((q) => [q.Code, q]));
      startTransition(() => setQuotes(next));
    });
  }, [client]);
  return quotes;
}

/** Live candles of one instrument and period, merged into the loader's history (as transitions, like quotes). */
export function useCandles(code: string, period: string, initial: Candle[]): Candle[] {
  const { client } = useContext(LiveContext);
  const [list, setList] = useState(initial);
  useEffect(() => setList(initial), [initial]);
  useEffect(() => {
    if (!client) return;
    return client.subscribe(
      `KLINE.${code}`,
      (data) => {
        const c = data as Candle & { period?: string };
        if (!c || typeof c.timestamp !== "number" || (c.period && c.period !== period)) return;
        const candle = { timestamp: c.timestamp, open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume };
        const merge = (prev: Candle[]) => {
          const last = prev[prev.length - 1];
          if (last && last.timestamp === c.timestamp) return [...prev.slice(0, -1), candle];
          if (!last || c.timestamp > last.timestamp) return [...prev.slice(-499), candle];
          return prev;
        };
        startTransition(() => setList(merge));
      },
      period,
    );
  }, [client, code, period]);
  return list;
}

/**
 * A live value handed down without re-rendering what it passes through: a component that only
 * needs the value at a moment (a click, a keystroke) reads `get()`; the one that shows it
 * subscribes with useFeed. The feed object is the same for the whole life of the owner, so a
 * memoised child that receives it does not render on every tick.
 */
export interface ValueFeed<T> {
  get(): T;
  subscribe(listener: () => void): () => void;
}

/** The feed of `value` (owned by the component that has it; updated after each of its renders). */
export function useValueFeed<T>(value: T): ValueFeed<T> {
  const [feed] = useState(() => {
    let current = value;
    const listeners = new Set<() => void>();
    return {
      get: () => current,
      subscribe(listener: () => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      set(next: T) {
        if (Object.is(next, current)) return;
        current = next;
        listeners.forEach((l) => l());
      },
    };
  });
  useEffect(() => feed.set(value), [feed, value]);
  return feed;
}

/** The current value of a feed (this component renders when it changes). */
export function useFeed<T>(feed: ValueFeed<T>): T {
  return useSyncExternalStore(feed.subscribe, feed.get, feed.get);
}

/** Input types that take typed text (a focused button, checkbox or radio is not typing). */
const TEXT_INPUTS = new Set([
  "text",
  "search",
  "email",
  "tel",
  "url",
  "password",
  "number",
  "date",
  "datetime-local",
  "month",
  "time",
  "week",
]);

/** Whether the focused element is one the user types into (a text field, a text area, a list box, editable content). */
function isTyping(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLInputElement) return TEXT_INPUTS.has(el.type);
  return el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el instanceof HTMLElement && el.isContentEditable);
}

/**
 * Refreshes the page's loader data every 15 s while live data is not flowing (and the device is
 * online), when nothing else is
 * going on: the tab is visible, no navigation, form post or fetcher is in flight (a refresh would
 * interrupt it, and one the user starts would cut the refresh off mid-response), and the user is
 * not typing (a text field, text area or list box has the focus: their page stays as it is until
 * they are done; a button that keeps the focus after a click does not count).
 */
export function StaleRefresher() {
  const status = useLiveStatus();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = useRef(false);
  busy.current = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle") || revalidator.state !== "idle";
  useEffect(() => {
    // offline: a refresh could only fail; the live client says when the network is back
    if (status === "live" || status === "connecting" || status === "offline") return;
    const timer = setInterval(() => {
      if (busy.current || document.visibilityState !== "visible" || isTyping(document.activeElement)) return;
      void revalidator.revalidate();
    }, STALE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [status, revalidator]);
  return null;
}

/**
 * The connection badge: live / reconnecting / stale / offline. Rendered by the server (hidden by
 * CSS where scripts cannot run: no live data without JavaScript) and as wide as its longest label
 * in every state (the other labels are invisible ghosts in the same grid cell: two on the label,
 * one on its inner box), so nothing around it moves when it appears or changes.
 */
export function ConnectionBadge() {
  const { t } = useTranslation();
  const status = useLiveStatus();
  const shown = status === "connecting" ? "reconnecting" : status;
  const [ghostA, ghostB, ghostC] = (["live", "reconnecting", "stale", "offline"] as const)
    .filter((k) => k !== shown)
    .map((k) => t(`live.${k}`));
  return (
    <span className={`badge live-badge badge-${shown}`} role="status" aria-live="polite" data-status={status}>
      <span className="dot" aria-hidden="true" />
      <span className="badge-label" data-ghost-a={ghostA} data-ghost-b={ghostB}>
        <span className="badge-label" data-ghost-a={ghostC}>
          <span>{t(`live.${shown}`)}</span>
        </span>
      </span>
    </span>
  );
}
