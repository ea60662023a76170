/**
 * The browser's live socket (spec §4) on partysocket: connect timeout 5 s, ping every 5 s,
 * reconnect after more than 2 unanswered pings, log in again and resubscribe after every
 * reconnect. Status: connecting → live; reconnecting while the socket is down; stale when
 * connected but the market data stopped (no DAY_MARKET for 10 s, or the feed says stale);
 * offline while the device has no network (the browser's `offline` event, `navigator.onLine`
 * false): the socket is closed and no reconnection is tried until the `online` event, which
 * reconnects at once instead of waiting out the back-off.
 */
import ReconnectingWebSocket from "partysocket/ws";
import { CONNECT_TIMEOUT_MS, MAX_MISSED_PINGS, PING_INTERVAL_MS } from "~/domain/protocol";

export type LiveStatus = "connecting" | "live" | "reconnecting" | "stale" | "offline";
type Handler = (data: unknown) => void;

/** The device's network as the browser reports it (window's online/offline events and navigator.onLine). */
export interface Network {
  readonly onLine: boolean;
  addEventListener(type: "online" | "offline", listener: () => void): void;
  removeEventListener(type: "online" | "offline", listener: () => void): void;
}

function browserNetwork(): Network | null {
  if (typeof window === "undefined" || typeof navigator === "undefined") return null;
  return {
    get onLine() {
      return navigator.onLine !== false;
    },
    addEventListener: (type, listener) => window.addEventListener(type, listener),
    removeEventListener: (type, listener) => window.removeEventListener(type, listener),
  };
}

const STALE_AFTER_MS = 10_000;

export class LiveClient {
  private ws: ReconnectingWebSocket;
  private topics = new Map<string, { period?: string; handlers: Set<Handler> }>();
  private statusHandlers = new Set<(s: LiveStatus) => void>();
  private missedPings = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastMarketAt = 0;
  private feedStale = false;
  private network: Network | null;
  private online: boolean;
  status: LiveStatus = "connecting";

  constructor(
    private ticket: string | null,
    options: { url?: string; pingIntervalMs?: number; WebSocket?: unknown; minReconnectionDelay?: number; network?: Network } = {},
  ) {
    this.network = options.network ?? browserNetwork();
    this.online = this.network?.onLine !== false;
    if (!this.online) this.status = "offline";
    const url = options.url ?? (() => `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/v2/ws`);
    this.ws = new ReconnectingWebSocket(url, [], {
      connectionTimeout: CONNECT_TIMEOUT_MS,
      minReconnectionDelay: options.minReconnectionDelay ?? 500 + Math.random() * 1000,
      maxReconnectionDelay: 15_000,
      startClosed: !this.online,
      ...(options.WebSocket ? { WebSocket: options.WebSocket } : {}),
    });
    this.ws.addEventListener("open", () => this.onOpen());
    this.ws.addEventListener("close", () => this.setStatus("reconnecting"));
    this.ws.addEventListener("message", (e) => this.onMessage(String(e.data)));
    this.timer = setInterval(() => this.heartbeat(), options.pingIntervalMs ?? PING_INTERVAL_MS);
    this.network?.addEventListener("offline", this.goOffline);
    this.network?.addEventListener("online", this.goOnline);
  }

  private goOffline = () => {
    this.online = false;
    this.setStatus("offline");
    this.ws.close();
  };

  private goOnline = () => {
    if (this.online) return;
    this.online = true;
    this.setStatus("reconnecting");
    this.ws.reconnect();
  };

  private onOpen() {
    this.missedPings = 0;
    if (this.ticket) this.send({ type: "login", token: this.ticket });
    for (const [topic, t] of this.topics) this.send({ type: "sub", topic, period: t.period });
    this.lastMarketAt = Date.now();
    this.setStatus("live");
  }

  private heartbeat() {
    if (this.ws.readyState !== 1) return;
    if (this.missedPings > MAX_MISSED_PINGS) {
      this.missedPings = 0;
      this.setStatus("reconnecting");
      this.ws.reconnect();
      return;
    }
    this.missedPings += 1;
    this.send({ type: "ping", timestamp: Date.now() });
    const quiet = this.topics.has("DAY_MARKET") && Date.now() - this.lastMarketAt > STALE_AFTER_MS;
    this.setStatus(quiet || this.feedStale ? "stale" : "live");
  }

  private onMessage(raw: string) {
    let message: { type?: unknown; data?: unknown; msg?: unknown };
    try {
      message = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof message.type !== "string") {
      console.warn("live socket: message without type");
      return;
    }
    if (message.type === "pong") {
      this.missedPings = 0;
      return;
    }
    if (message.type === "warning") {
      console.warn("live socket:", message.msg);
      return;
    }
    if (message.type === "DAY_MARKET") {
      this.lastMarketAt = Date.now();
      this.feedStale = Array.isArray(message.data) && message.data.some((q: { stale?: boolean }) => q?.stale);
      this.setStatus(this.feedStale ? "stale" : "live");
    }
    this.topics.get(message.type)?.handlers.forEach((h) => h(message.data));
  }

  private send(message: unknown) {
    if (this.ws.readyState === 1) this.ws.send(JSON.stringify(message));
  }

  private setStatus(next: LiveStatus) {
    // without a network every state reads offline (a socket that closes does not say "reconnecting")
    const status = this.online ? next : "offline";
    if (status === this.status) return;
    this.status = status;
    this.statusHandlers.forEach((h) => h(status));
  }

  onStatus(handler: (s: LiveStatus) => void) {
    this.statusHandlers.add(handler);
    return () => this.statusHandlers.delete(handler);
  }

  /** Subscribes a handler to a topic (KLINE topics with a period); returns the unsubscribe. */
  subscribe(topic: string, handler: Handler, period?: string) {
    let entry = this.topics.get(topic);
    if (!entry || entry.period !== period) {
      entry = { period, handlers: entry?.handlers ?? new Set() };
      this.topics.set(topic, entry);
      this.send({ type: "sub", topic, period });
    }
    entry.handlers.add(handler);
    return () => {
      const current = this.topics.get(topic);
      if (!current) return;
      current.handlers.delete(handler);
      if (current.handlers.size === 0) {
        this.topics.delete(topic);
        this.send({ type: "unsub", topic });
      }
    };
  }

  setTicket(ticket: string | null) {
    if (ticket === this.ticket) return;
    this.ticket = ticket;
    this.send(ticket ? { type: "login", token: ticket } : { type: "logout" });
  }

  close() {
    clearInterval(this.timer);
    this.network?.removeEventListener("offline", this.goOffline);
    this.network?.removeEventListener("online", this.goOnline);
    this.ws.close();
  }
}
