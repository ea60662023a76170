/**
 * The live socket protocol of spec §4 (JSON text frames), shared by the rooms and the browser
 * client. Every incoming frame is validated; anything unexpected becomes a warning, never a crash.
 *
 * Client → server: login {token}, logout, sub {topic, period?}, unsub {topic}, ping {timestamp}.
 * Server → client: pong {timestamp}, login_result {code}, warning {msg}, and topic messages
 * {type: TOPIC, data}: DAY_MARKET (list of quotes), KLINE.{code} (a candle of the subscribed
 * period), FOREX_TRADE, FOREX_CLOSED, FOREX_FOLLOW_TRADE (per user).
 */
import type { Candle, Period, Quote } from "./market/sim";

export const MAX_FRAME_BYTES = 4096;
export const PING_INTERVAL_MS = 5_000;
export const MAX_MISSED_PINGS = 2;
export const CONNECT_TIMEOUT_MS = 5_000;

export const USER_TOPICS = ["FOREX_TRADE", "FOREX_CLOSED", "FOREX_FOLLOW_TRADE"] as const;
export type UserTopic = (typeof USER_TOPICS)[number];

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

const PERIOD_SET = new Set(["1min", "5min", "15min", "30min", "60min", "1day"]);

export type ParseResult = { ok: true; message: ClientMessage } | { ok: false; warning: string };

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
      return { ok: true, message: { type: "ping", timestamp: typeof m.timestamp === "number" && Number.isFinite(m.timestamp) ? m.timestamp : Date.now() } };
    case "sub":
    case "unsub": {
      if (typeof m.topic !== "string" || !m.topic || m.topic.length > 64) return { ok: false, warning: `${m.type} needs a topic` };
      if (m.type === "unsub") return { ok: true, message: { type: "unsub", topic: m.topic } };
      if (m.period !== undefined && (typeof m.period !== "string" || !PERIOD_SET.has(m.period))) {
        return { ok: false, warning: `unknown period: ${String(m.period).slice(0, 16)}` };
      }
      return { ok: true, message: { type: "sub", topic: m.topic, period: m.period as Period | undefined } };
    }
    default:
      return { ok: false, warning: `unknown message type: ${m.type.slice(0, 32)}` };
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
