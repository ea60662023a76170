/**
 * LiveRoom: a shard of the browser-facing relay at /v2/ws (spec §4), reachable only through the
 * Worker. Each socket may log in (a session token, or the web app's socket ticket), subscribe to
 * DAY_MARKET and KLINE.{code} (with its period) and to its own per-user topics. The shard gets
 * each market tick once from MarketRoom and fans it out: one serialised frame per topic.
 *
 * Hardening: every frame is validated (a malformed one gets a warning, never breaks the
 * handler); each connection has a frame-rate and frame-size budget (a socket that keeps
 * exceeding it is closed); logins are checked against D1 through a cache with batched lookups
 * (a login frame does not cost a query of its own), and every few seconds the sessions of all
 * logged-in sockets are re-checked in one query, so a socket whose session ended (logout,
 * password change, closed user) is logged out with a login_result failure.
 */
import { Server, type Connection, type ConnectionContext, type WSMessage } from "partyserver";
import type { UserEvent } from "~/domain/engine";
import { DEFAULT_PERIOD, type Period } from "~/domain/market";
import {
  FrameBudget,
  MAX_FRAME_BYTES,
  MAX_VIOLATIONS,
  frameBytes,
  isUserTopic,
  klineCode,
  parseClientMessage,
  type ServerMessage,
  type TickPayload,
} from "~/domain/protocol";
import { MARKET_ROOM } from "~/domain/rooms";
import { SessionLookup } from "./session-lookup";
import { services } from "./services";

interface SocketState {
  userId: number | null;
  /** The session the socket logged in with (its stored id), re-checked periodically. */
  sessionId: string | null;
  /** topic → period (for KLINE topics) or "" */
  topics: Record<string, string>;
}

const MAX_TOPICS = 32;
const REGISTER_EVERY_MS = 30_000;
/** Logged-in sockets have their sessions re-checked this often. */
export const SESSION_CHECK_MS = 3_000;
/** A session lookup is trusted this long (also for unknown ids, so a flood of one bad token costs one query). */
const SESSION_CACHE_MS = 2_500;
/** Lookups arriving within this window share one query. */
const LOOKUP_BATCH_MS = 15;

export class LiveRoom extends Server<Env> {
  static override options = { hibernate: true };

  private lastRegister = 0;
  private knownCodes: Set<string> | null = null;
  private budgets = new Map<string, FrameBudget>();
  private readonly sessions = new SessionLookup((ids) => services().liveSessions(this.env.DB, ids), { ttlMs: SESSION_CACHE_MS, batchMs: LOOKUP_BATCH_MS });

  private send(connection: Connection, message: ServerMessage) {
    try {
      connection.send(JSON.stringify(message));
    } catch {
      // the socket closed meanwhile
    }
  }

  private state(connection: Connection<SocketState>): SocketState {
    return connection.state ?? { userId: null, sessionId: null, topics: {} };
  }

  override onConnect(connection: Connection<SocketState>, _ctx: ConnectionContext) {
    connection.setState({ userId: null, sessionId: null, topics: {} });
  }

  override onClose(connection: Connection) {
    this.budgets.delete(connection.id);
  }

  private async codes(): Promise<Set<string>> {
    if (!this.knownCodes) {
      const app = services();
      const list = await app.listInstruments(await app.createServiceContext(this.env));
      this.knownCodes = new Set(list.map((i) => i.code));
    }
    return this.knownCodes;
  }

  private market() {
    return this.env.MARKET_ROOM.get(this.env.MARKET_ROOM.idFromName(MARKET_ROOM));
  }

  private async registerWithMarket(force = false) {
    if (!force && Date.now() - this.lastRegister < REGISTER_EVERY_MS) return;
    this.lastRegister = Date.now();
    await this.market().register(this.name);
  }

  /** Re-checks the sessions of every logged-in socket in one query; ended ones are logged out. */
  async checkSessions(): Promise<number> {
    const sockets = [...this.getConnections<SocketState>()].filter((c) => c.state?.userId && c.state.sessionId);
    if (sockets.length === 0) return 0;
    const ids = [...new Set(sockets.map((c) => c.state!.sessionId!))];
    const live = await this.sessions.loadMany(ids);
    if (!live) return 0; // D1 unavailable: keep everyone as they are until the next round
    this.sessions.remember(ids, live);
    let ended = 0;
    for (const connection of sockets) {
      const s = connection.state!;
      if (live.get(s.sessionId!) !== s.userId) {
        connection.setState({ ...s, userId: null, sessionId: null });
        this.send(connection, { type: "login_result", code: 0 });
        ended += 1;
      }
    }
    return ended;
  }

  private hasLoggedIn() {
    for (const c of this.getConnections<SocketState>()) if (c.state?.userId) return true;
    return false;
  }

  override async onAlarm() {
    try {
      await this.checkSessions();
    } catch (error) {
      console.error("session check failed", error);
    }
    if (this.hasLoggedIn()) await this.ctx.storage.setAlarm(Date.now() + SESSION_CHECK_MS);
  }

  private async ensureSessionChecks() {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + SESSION_CHECK_MS);
  }

  /** Frame budget of a connection: false (and a warning, or a close after repeated abuse) when over it. */
  private admit(connection: Connection, raw: WSMessage): boolean {
    let budget = this.budgets.get(connection.id);
    if (!budget) this.budgets.set(connection.id, (budget = new FrameBudget()));
    const tooBig = frameBytes(raw) > MAX_FRAME_BYTES;
    if (tooBig) budget.violations += 1;
    const allowed = !tooBig && budget.take(Date.now());
    if (budget.violations > MAX_VIOLATIONS) {
      connection.close(1008, "frame limits exceeded");
      this.budgets.delete(connection.id);
      return false;
    }
    if (!allowed) this.send(connection, { type: "warning", msg: tooBig ? "frame too large" : "too many frames" });
    return allowed;
  }

  override async onMessage(connection: Connection<SocketState>, raw: WSMessage) {
    try {
      if (!this.admit(connection, raw)) return;
      await this.handle(connection, raw);
    } catch (error) {
      console.error("socket message failed", error);
      this.send(connection, { type: "warning", msg: "message could not be handled" });
    }
  }

  private async handle(connection: Connection<SocketState>, raw: WSMessage) {
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) {
      this.send(connection, { type: "warning", msg: parsed.warning });
      return;
    }
    const message = parsed.message;
    const state = this.state(connection);
    switch (message.type) {
      case "ping":
        this.send(connection, { type: "pong", timestamp: message.timestamp });
        return;
      case "login": {
        const sessionId = await services().socketSessionId(this.env, message.token);
        const userId = sessionId ? await this.sessions.get(sessionId) : null;
        connection.setState({ ...this.state(connection), userId, sessionId: userId ? sessionId : null });
        this.send(connection, { type: "login_result", code: userId ? 1 : 0 });
        if (userId) await this.ensureSessionChecks();
        return;
      }
      case "logout":
        connection.setState({ ...state, userId: null, sessionId: null });
        return;
      case "unsub": {
        if (!(message.topic in state.topics)) {
          this.send(connection, { type: "warning", msg: "not subscribed" });
          return;
        }
        const topics = { ...state.topics };
        delete topics[message.topic];
        connection.setState({ ...state, topics });
        return;
      }
      case "sub": {
        const topic = message.topic;
        const code = klineCode(topic);
        if (topic !== "DAY_MARKET" && !isUserTopic(topic) && !(code && (await this.codes()).has(code))) {
          this.send(connection, { type: "warning", msg: "unknown topic" });
          return;
        }
        const current = this.state(connection);
        if (Object.keys(current.topics).length >= MAX_TOPICS && !(topic in current.topics)) {
          this.send(connection, { type: "warning", msg: "too many topics" });
          return;
        }
        const period: Period = code ? (message.period ?? DEFAULT_PERIOD) : DEFAULT_PERIOD;
        connection.setState({ ...current, topics: { ...current.topics, [topic]: code ? period : "" } });
        if (topic === "DAY_MARKET" || topic === "FOREX_TRADE" || topic === "FOREX_FOLLOW_TRADE" || code) await this.registerWithMarket(true);
        return;
      }
    }
  }

  /** Called by MarketRoom once per tick. */
  async receiveTick(tick: TickPayload) {
    let dayMarket: string | null = null;
    const klineFrames = new Map<string, string>();
    let listeners = 0;
    const watchers = new Set<number>();
    for (const connection of this.getConnections<SocketState>()) {
      const topics = connection.state?.topics;
      if (!topics) continue;
      for (const [topic, period] of Object.entries(topics)) {
        if (topic === "FOREX_TRADE" || topic === "FOREX_FOLLOW_TRADE") {
          // live profit (own orders; followed orders) is computed by the market room only for users watching it
          if (connection.state?.userId) {
            watchers.add(connection.state.userId);
            listeners += 1;
          }
        } else if (topic === "DAY_MARKET") {
          dayMarket ??= JSON.stringify({ type: "DAY_MARKET", data: tick.stale ? tick.quotes.map((q) => ({ ...q, stale: true })) : tick.quotes });
          connection.send(dayMarket);
          listeners += 1;
        } else if (period) {
          const code = topic.slice(6);
          const key = `${code}|${period}`;
          let frame = klineFrames.get(key);
          if (frame === undefined) {
            const candle = tick.candles[code]?.[period as Period];
            frame = candle ? JSON.stringify({ type: topic, data: { ...candle, period } }) : "";
            klineFrames.set(key, frame);
          }
          if (frame) connection.send(frame);
          listeners += 1;
        }
      }
    }
    if (listeners > 0) await this.registerWithMarket();
    else await this.market().unregister(this.name);
    return { listeners, watchers: [...watchers] };
  }

  /**
   * Per-user topics (FOREX_TRADE, FOREX_CLOSED, FOREX_FOLLOW_TRADE): each event goes only to the
   * sockets logged in as its user that subscribed to its topic. One call carries a whole batch.
   */
  async publishToUsers(events: UserEvent[]) {
    const byUser = new Map<number, UserEvent[]>();
    for (const e of events) {
      const list = byUser.get(e.userId);
      if (list) list.push(e);
      else byUser.set(e.userId, [e]);
    }
    let sent = 0;
    for (const connection of this.getConnections<SocketState>()) {
      const s = connection.state;
      const mine = s?.userId ? byUser.get(s.userId) : undefined;
      if (!mine) continue;
      for (const e of mine) {
        if (e.topic in (s!.topics ?? {})) {
          this.send(connection, { type: e.topic, data: e.data });
          sent += 1;
        }
      }
    }
    return sent;
  }

  /** One event for one user (kept for callers that publish a single event). */
  async publishToUser(userId: number, topic: UserEvent["topic"], data: unknown) {
    return this.publishToUsers([{ userId, topic, data }]);
  }
}
