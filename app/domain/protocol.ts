/**
 * The live socket protocol of spec §4 (JSON text frames), shared by the rooms and the browser
 * client. Every incoming frame is validated; anything unexpected becomes a warning, never a crash.
 * Nothing here calls a method of untrusted input (no String(x) on an object a client sent).
 *
 * Client → server: login {token}, logout, sub {topic, period?}, unsub {topic}, ping {timestamp}.
 * Server → client: pong {timestamp}, login_result {code}, warning {msg}, and topic messages
 * {type: TOPIC, data}: DAY_MARKET (list of quotes), KLINE.{code} (a candle of the subscribed
 * period), FOREX_TRADE, FOREX_CLOSED, FOREX_FOLLOW_TRADE (per user).
 */
import { isPeriod, type Candle, type Period, type Quote } from "./market";

export const MAX_FRAME_BYTES = 4096;
export const PING_INTERVAL_MS = 5_000;
export const MAX_MISSED_PINGS = 2;
export const CONNECT_TIMEOUT_MS = 5_000;
/** Per connection: at most this many frames in any window of FRAME_WINDOW_MS … */
export const MAX_FRAMES_PER_WINDOW = 20;
export const FRAME_WINDOW_MS = 1_000;
/** … and a connection that keeps exceeding its limits this many times is closed (1008). */
export const MAX_VIOLATIONS = 10;

export const USER_TOPICS = ["FOREX_TRADE", "FOREX_CLOSED", "FOREX_FOLLOW_TRADE", "MICRO_SETTLED"] as const;
export type UserTopic = (typeof USER_TOPICS)[number];

export function isUserTopic(topic: string): topic is UserTopic {
  return (USER_TOPICS as readonly string[]).includes(topic);
}

export type ClientMessage =
  | { type: "login"; token: string }
  | { type: "logout" }
  | { type: "sub"; topic: string; period?: Period }
  | { type: "unsub"; topic: string }
  | { type: "ping"; timestamp: number };

export type KlineMessage = { type: `KLINE.${string}`; data: Candle & { period: Period } };
export type ServerMessage =
  | { type: "pong"; timestamp: number }
  | { type: "login_result"; code: 0 | 1 }
  | { type: "warning"; msg: string }
  | { type: "DAY_MARKET"; data: (Quote & { stale?: boolean })[] }
  | KlineMessage
  | { type: UserTopic; data: unknown };

export type ParseResult = { ok: true; message: ClientMessage } | { ok: false; warning: string };

const TOPIC_RE = /^[A-Za-z0-9_.\-/]{1,64}$/;

/** Size of a frame in bytes (text frames count their UTF-8 length bound, binary frames their bytes). */
export function frameBytes(raw: unknown): number {
  if (typeof raw === "string") return raw.length;
  if (raw instanceof ArrayBuffer) return raw.byteLength;
  if (ArrayBuffer.isView(raw)) return raw.byteLength;
  return 0;
}

/** A short, printable echo of a client value for a warning (only strings are echoed). */
function echo(value: unknown): string {
  return typeof value === "string" ? value.replace(/[^\x20-\x7e]/g, "?").slice(0, 32) : typeof value;
}

/** Validates one incoming frame. */
export function parseClientMessage(raw: unknown): ParseResult {
  if (typeof raw !== "string") return { ok: false, warning: "frames must be JSON text" };
  if (raw.length > MAX_FRAME_BYTES) return { ok: false, warning: "frame too large" };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, warning: "malformed JSON" };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, warning: "message must be an object" };
  const m = value as Record<string, unknown>;
  if (typeof m.type !== "string" || !m.type) return { ok: false, warning: "message without type" };
  switch (m.type) {
    case "login":
      return typeof m.token === "string" && m.token.length > 0 && m.token.length <= 512
        ? { ok: true, message: { type: "login", token: m.token } }
        : { ok: false, warning: "login needs a token" };
    case "logout":
      return { ok: true, message: { type: "logout" } };
    case "ping":
      return {
        ok: true,
        message: { type: "ping", timestamp: typeof m.timestamp === "number" && Number.isFinite(m.timestamp) ? m.timestamp : Date.now() },
      };
    case "sub":
    case "unsub": {
      if (typeof m.topic !== "string" || !TOPIC_RE.test(m.topic)) return { ok: false, warning: `${m.type} needs a topic` };
      if (m.type === "unsub") return { ok: true, message: { type: "unsub", topic: m.topic } };
      if (m.period !== undefined && !isPeriod(m.period)) return { ok: false, warning: `unknown period: ${echo(m.period)}` };
      return { ok: true, message: { type: "sub", topic: m.topic, period: m.period } };
    }
    default:
      return { ok: false, warning: `unknown message type: ${echo(m.type)}` };
  }
}

/** KLINE.{code} → code, or null. */
export function klineCode(topic: string): string | null {
  return topic.startsWith("KLINE.") && topic.length > 6 ? topic.slice(6) : null;
}

/** What MarketRoom sends to each LiveRoom shard once per tick. */
export interface TickPayload {
  time: number;
  stale: boolean;
  quotes: Quote[];
  /** Current candle of every period, per instrument code. */
  candles: Record<string, Partial<Record<Period, Candle>>>;
}

/**
 * A per-connection frame budget: a sliding window of arrival times. `take()` says whether one
 * more frame may be handled now; refusals are counted so the room can close an abusive socket.
 */
export class FrameBudget {
  private times: number[] = [];
  violations = 0;

  constructor(
    private readonly max = MAX_FRAMES_PER_WINDOW,
    private readonly windowMs = FRAME_WINDOW_MS,
  ) {}

  take(now: number): boolean {
    while (this.times.length && now - this.times[0]! >= this.windowMs) this.times.shift();
    if (this.times.length >= this.max) {
      this.violations += 1;
      return false;
    }
    this.times.push(now);
    return true;
  }
}
