/**
 * Upstream market feeds, chosen by configuration (MARKET_FEED): an upstream socket speaking the
 * spec §4 protocol ("upstream"), or a public exchange stream in Binance's combined-stream
 * ticker/kline format ("binance"). One upstream connection per MarketRoom, whatever the number
 * of browsers. Each adapter reconnects with exponential backoff (and jitter) and reports itself
 * stale when the connection is down or silent. Transport-agnostic: the room passes a connect
 * function (fetch upgrade in workerd; the `ws` package in Node tests).
 */
import type { Candle, Period } from "~/domain/market";

export interface SocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** Opens a socket; the transport attaches the handlers before any message can arrive. */
export type Connect = (url: string, on: { message(data: unknown): void; close(): void }) => Promise<SocketLike>;

export interface FeedEvents {
  /** A trade/last price for an instrument code, with 24h figures when the source has them. */
  quote(code: string, q: { price: number; open?: number; high?: number; low?: number; volume?: number; time: number }): void;
  /** A candle of a period from the source. */
  candle(code: string, period: Period, candle: Candle): void;
  status(connected: boolean): void;
}

export interface FeedOptions {
  url: string;
  codes: string[];
  connect: Connect;
  events: FeedEvents;
  token?: string;
  pingIntervalMs?: number;
  /** Silence longer than this marks the feed stale. */
  staleAfterMs?: number;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export abstract class UpstreamFeed {
  protected socket: SocketLike | null = null;
  private stopped = false;
  private attempt = 0;
  private lastMessage = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  protected missedPings = 0;
  connected = false;
  connections = 0;

  constructor(protected readonly options: FeedOptions) {}

  start() {
    this.stopped = false;
    void this.open();
    this.timer ??= setInterval(() => this.heartbeat(), this.options.pingIntervalMs ?? 5000);
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.timer = null;
    this.socket?.close(1000, "stopped");
    this.socket = null;
    this.setConnected(false);
  }

  /** Stale: down, or no message for staleAfterMs. */
  isStale(now = Date.now()) {
    return !this.connected || now - this.lastMessage > (this.options.staleAfterMs ?? 15_000);
  }

  protected abstract url(): string;
  protected abstract onOpen(socket: SocketLike): void;
  protected abstract onMessage(data: unknown): void;
  protected ping(_socket: SocketLike): void {}

  private async open() {
    if (this.stopped) return;
    try {
      let closed = false;
      let socket: SocketLike | null = null;
      const onClose = () => {
        if (closed) return;
        closed = true;
        if (this.socket === socket) this.socket = null;
        this.setConnected(false);
        this.scheduleReconnect();
      };
      socket = await this.options.connect(this.url(), {
        message: (data) => {
          this.lastMessage = Date.now();
          this.attempt = 0;
          try {
            this.onMessage(data);
          } catch (error) {
            console.warn("upstream message ignored", error);
          }
        },
        close: onClose,
      });
      if (closed) return;
      this.connections += 1;
      this.socket = socket;
      this.missedPings = 0;
      this.lastMessage = Date.now();
      this.setConnected(true);
      this.onOpen(socket);
    } catch {
      this.setConnected(false);
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect() {
    if (this.stopped || this.reconnectTimer) return;
    const min = this.options.minBackoffMs ?? 1000;
    const max = this.options.maxBackoffMs ?? 30_000;
    const delay = Math.min(max, min * 2 ** this.attempt) * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      void this.open();
    }, delay);
  }

  /** Forces a new connection (e.g. after missed pongs). */
  protected reconnect() {
    const socket = this.socket;
    this.socket = null;
    this.setConnected(false);
    socket?.close(4000, "unresponsive");
    this.scheduleReconnect();
  }

  private heartbeat() {
    if (!this.socket) return;
    this.ping(this.socket);
    this.options.events.status(!this.isStale());
  }

  private setConnected(value: boolean) {
    if (this.connected === value) return;
    this.connected = value;
    this.options.events.status(value);
  }
}

function num(value: unknown): number | undefined {
  const n = typeof value === "string" ? Number(value) : typeof value === "number" ? value : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** (a) An upstream server speaking the spec §4 protocol: login, sub DAY_MARKET and KLINE.{code}, ping/pong. */
export class SpecProtocolFeed extends UpstreamFeed {
  protected url() {
    return this.options.url;
  }

  protected onOpen(socket: SocketLike) {
    if (this.options.token) socket.send(JSON.stringify({ type: "login", token: this.options.token }));
    socket.send(JSON.stringify({ type: "sub", topic: "DAY_MARKET" }));
    for (const code of this.options.codes) socket.send(JSON.stringify({ type: "sub", topic: `KLINE.${code}`, period: "1min" }));
  }

  protected override ping(socket: SocketLike) {
    if (this.missedPings > 2) {
      this.reconnect();
      return;
    }
    this.missedPings += 1;
    socket.send(JSON.stringify({ type: "ping", timestamp: Date.now() }));
  }

  protected onMessage(data: unknown) {
    const m = JSON.parse(String(data)) as { type?: string; data?: unknown };
    if (m.type === "pong") {
      this.missedPings = 0;
      return;
    }
    if (m.type === "DAY_MARKET" && Array.isArray(m.data)) {
      for (const q of m.data as Record<string, unknown>[]) {
        const code = typeof q.Code === "string" ? q.Code : typeof q.ShowCode === "string" ? q.ShowCode.replace("/", "") : null;
        const price = num(q.Close);
        if (!code || price === undefined || !this.options.codes.includes(code)) continue;
        this.options.events.quote(code, {
          price,
          open: num(q.Open),
          high: num(q.High),
          low: num(q.Low),
          volume: num(q.Volume),
          time: num(q.time) ?? Date.now(),
        });
      }
      return;
    }
    if (typeof m.type === "string" && m.type.startsWith("KLINE.") && m.data && typeof m.data === "object") {
      const code = m.type.slice(6);
      const k = m.data as Record<string, unknown>;
      const candle = {
        timestamp: num(k.timestamp),
        open: num(k.open),
        high: num(k.high),
        low: num(k.low),
        close: num(k.close),
        volume: num(k.volume) ?? 0,
      };
      if (
        candle.timestamp === undefined ||
        candle.open === undefined ||
        candle.high === undefined ||
        candle.low === undefined ||
        candle.close === undefined
      )
        return;
      this.options.events.candle(code, (k.period as Period) ?? "1min", candle as Candle);
    }
  }
}

const BINANCE_INTERVAL: Record<string, Period> = {
  "1m": "1min",
  "5m": "5min",
  "15m": "15min",
  "30m": "30min",
  "1h": "60min",
  "1d": "1day",
};

/** (b) A public exchange stream in Binance's combined-stream format (24hrTicker and kline events). */
export class BinanceFeed extends UpstreamFeed {
  protected url() {
    const streams = this.options.codes.flatMap((c) => [`${c.toLowerCase()}@ticker`, `${c.toLowerCase()}@kline_1m`]).join("/");
    const base = this.options.url.replace(/\/+$/, "");
    return `${base}/stream?streams=${streams}`;
  }

  protected onOpen() {}

  protected onMessage(data: unknown) {
    const envelope = JSON.parse(String(data)) as { data?: Record<string, unknown> } & Record<string, unknown>;
    const e = (envelope.data ?? envelope) as Record<string, unknown>;
    const code = typeof e.s === "string" ? e.s.toUpperCase() : null;
    if (!code || !this.options.codes.includes(code)) return;
    if (e.e === "24hrTicker") {
      const price = num(e.c);
      if (price === undefined) return;
      this.options.events.quote(code, {
        price,
        open: num(e.o),
        high: num(e.h),
        low: num(e.l),
        volume: num(e.v),
        time: num(e.E) ?? Date.now(),
      });
    } else if (e.e === "kline" && e.k && typeof e.k === "object") {
      const k = e.k as Record<string, unknown>;
      const period = BINANCE_INTERVAL[String(k.i)];
      const candle = { timestamp: num(k.t), open: num(k.o), high: num(k.h), low: num(k.l), close: num(k.c), volume: num(k.v) ?? 0 };
      if (
        !period ||
        candle.timestamp === undefined ||
        candle.open === undefined ||
        candle.high === undefined ||
        candle.low === undefined ||
        candle.close === undefined
      )
        return;
      this.options.events.candle(code, period, candle as Candle);
    }
  }
}
