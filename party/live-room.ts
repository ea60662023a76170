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
 *
 * Shards by user (docs/decisions/018-scale.md, "Socket shards by user"): a signed-in upgrade
 * lands on its user's home shard (app/server.ts); per-user events are sent to the home shard
 * only. A socket that logs in on another shard registers (user → this shard) with the user's
 * home shard, which forwards that user's events here. The home keeps the registrations in its
 * SQLite storage (it hibernates), each with an expiry that the registering shard renews while
 * the socket stays; the last socket of the user here to close or log out removes it, and a
 * shard that gets events for a user it no longer holds says so, which removes it too.
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
import { MARKET_ROOM, homeShard } from "~/domain/rooms";
import { SessionLookup } from "./session-lookup";
import { services } from "./services";

interface SocketState {
  userId: number | null;
  /** The session the socket logged in with (its stored id), re-checked periodically. */
  sessionId: string | null;
  /** topic → period (for KLINE topics) or "" */
  topics: Record<string, string>;
}

/**
 * Who gets what on a tick, worked out from the sockets' states once and kept until a state
 * changes (a subscription, a login or logout, a close), so a tick sends frames without walking
 * every socket's state (partyserver reads each socket's attachment on every walk).
 */
interface TickPlan {
  dayMarket: Connection[];
  /** `code|period` → the code, the period and the sockets that follow it */
  klines: Map<string, { code: string; period: Period; sockets: Connection[] }>;
  /** the users watching their own or followed orders' live profit */
  watchers: number[];
  /** subscriptions the tick serves (DAY_MARKET, kline and logged-in profit topics) */
  listeners: number;
}

const MAX_TOPICS = 32;
const REGISTER_EVERY_MS = 30_000;
/** Logged-in sockets have their sessions re-checked this often. */
export const SESSION_CHECK_MS = 3_000;
/** A session lookup is trusted this long (also for unknown ids, so a flood of one bad token costs one query). */
const SESSION_CACHE_MS = 2_500;
/** Lookups arriving within this window share one query. */
const LOOKUP_BATCH_MS = 15;
/** A registration of a socket with its user's home shard lasts this long unless renewed... */
export const REMOTE_TTL_MS = 10 * 60_000;
/** ...and the registering shard renews it this often while the user's socket stays. */
export const REMOTE_RENEW_MS = 2 * 60_000;

/** What one shard answers for events forwarded to it: how many frames it sent, and the users it holds no logged-in socket of. */
interface Delivery {
  sent: number;
  absent: number[];
}

export class LiveRoom extends Server<Env> {
  static override options = { hibernate: true };

  private lastRegister = 0;
  private knownCodes: Set<string> | null = null;
  private budgets = new Map<string, FrameBudget>();
  /** Home side: user id → (shard → expiry) of the user's sockets on other shards; mirrors the `live_remote` table. */
  private remotes: Map<number, Map<string, number>> | null = null;
  /** Registering side: when this shard last renewed its registrations with the home shards. */
  private lastRenew = 0;
  /** Local runs and tests only (not counted elsewhere): how many event batches for each user reached this shard (home or forwarded). */
  private received = new Map<number, number>();
  /** Built by the first tick after a state changed; null until then (and after a wake from hibernation). */
  private tickPlan: TickPlan | null = null;
  private readonly sessions = new SessionLookup((ids) => services().liveSessions(this.env.DB, ids), {
    ttlMs: SESSION_CACHE_MS,
    batchMs: LOOKUP_BATCH_MS,
  });

  private send(connection: Connection, message: ServerMessage) {
    this.sendFrame(connection, JSON.stringify(message));
  }

  private sendFrame(connection: Connection, frame: string) {
    try {
      connection.send(frame);
    } catch {
      // the socket closed meanwhile
    }
  }

  /** Every change of a socket's state goes through here, so the tick plan is never out of date. */
  private setSocketState(connection: Connection<SocketState>, state: SocketState) {
    connection.setState(state);
    this.tickPlan = null;
  }

  private state(connection: Connection<SocketState>): SocketState {
    return connection.state ?? { userId: null, sessionId: null, topics: {} };
  }

  override onConnect(connection: Connection<SocketState>, _ctx: ConnectionContext) {
    this.setSocketState(connection, { userId: null, sessionId: null, topics: {} });
  }

  override onError(_connection: Connection<SocketState>, _error: unknown) {
    this.tickPlan = null;
  }

  override async onClose(connection: Connection<SocketState>) {
    this.tickPlan = null;
    this.budgets.delete(connection.id);
    const userId = connection.state?.userId;
    if (userId) await this.left([userId], connection.id);
  }

  private room(name: string) {
    return this.env.LIVE_ROOM.get(this.env.LIVE_ROOM.idFromName(name));
  }

  /** The users with a logged-in socket on this shard (optionally not counting one connection). */
  private usersHere(except?: string): Set<number> {
    const users = new Set<number>();
    for (const c of this.getConnections<SocketState>()) if (c.id !== except && c.state?.userId) users.add(c.state.userId);
    return users;
  }

  /** Registers (user → this shard) with the home shards of users logged in here whose home is elsewhere. */
  private async register(userIds: Iterable<number>) {
    const byHome = new Map<string, number[]>();
    for (const id of userIds) {
      const home = homeShard(id);
      if (home === this.name) continue;
      const list = byHome.get(home);
      if (list) list.push(id);
      else byHome.set(home, [id]);
    }
    const results = await Promise.allSettled([...byHome].map(([home, ids]) => this.room(home).registerSockets(this.name, ids)));
    for (const r of results) if (r.status === "rejected") console.error("socket registration failed", r.reason);
  }

  /** Users whose socket here logged out or closed: those with none left here are unregistered from their home shards. */
  private async left(userIds: number[], except?: string) {
    const still = this.usersHere(except);
    const gone = new Map<string, number[]>();
    for (const id of new Set(userIds)) {
      const home = homeShard(id);
      if (home === this.name || still.has(id)) continue;
      const list = gone.get(home);
      if (list) list.push(id);
      else gone.set(home, [id]);
    }
    const results = await Promise.allSettled([...gone].map(([home, ids]) => this.room(home).unregisterSockets(this.name, ids)));
    for (const r of results) if (r.status === "rejected") console.error("socket unregistration failed", r.reason);
  }

  /** Renews this shard's registrations (from the session-check alarm, which runs while anyone is logged in here). */
  private async renewRegistrations(now = Date.now()) {
    if (now - this.lastRenew < REMOTE_RENEW_MS) return;
    this.lastRenew = now;
    await this.register(this.usersHere());
  }

  /** The home side's registry, loaded from storage once per wake (expired rows dropped). */
  private registry(now = Date.now()): Map<number, Map<string, number>> {
    if (this.remotes) return this.remotes;
    const sql = this.ctx.storage.sql;
    sql.exec(
      "CREATE TABLE IF NOT EXISTS live_remote (user_id INTEGER NOT NULL, shard TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (user_id, shard)) WITHOUT ROWID",
    );
    sql.exec("DELETE FROM live_remote WHERE expires_at <= ?", now);
    const map = new Map<number, Map<string, number>>();
    for (const row of sql.exec<{ user_id: number; shard: string; expires_at: number }>(
      "SELECT user_id, shard, expires_at FROM live_remote",
    )) {
      let shards = map.get(row.user_id);
      if (!shards) map.set(row.user_id, (shards = new Map()));
      shards.set(row.shard, row.expires_at);
    }
    this.remotes = map;
    return map;
  }

  private forget(userId: number, shard: string) {
    const registry = this.registry();
    const shards = registry.get(userId);
    if (!shards?.delete(shard)) return;
    if (shards.size === 0) registry.delete(userId);
    this.ctx.storage.sql.exec("DELETE FROM live_remote WHERE user_id = ? AND shard = ?", userId, shard);
  }

  /** Home side: `shard` holds logged-in sockets of these users (registered or renewed). */
  async registerSockets(shard: string, userIds: number[], now = Date.now()) {
    const registry = this.registry(now);
    const expires = now + REMOTE_TTL_MS;
    for (const id of userIds) {
      if (homeShard(id) !== this.name || shard === this.name) continue;
      let shards = registry.get(id);
      if (!shards) registry.set(id, (shards = new Map()));
      shards.set(shard, expires);
      this.ctx.storage.sql.exec(
        "INSERT INTO live_remote (user_id, shard, expires_at) VALUES (?, ?, ?) ON CONFLICT (user_id, shard) DO UPDATE SET expires_at = excluded.expires_at",
        id,
        shard,
        expires,
      );
    }
  }

  /** Home side: `shard` holds no logged-in socket of these users any more. */
  async unregisterSockets(shard: string, userIds: number[]) {
    for (const id of userIds) this.forget(id, shard);
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
    const out: number[] = [];
    for (const connection of sockets) {
      const s = connection.state!;
      if (live.get(s.sessionId!) !== s.userId) {
        this.setSocketState(connection, { ...s, userId: null, sessionId: null });
        this.send(connection, { type: "login_result", code: 0 });
        out.push(s.userId!);
      }
    }
    if (out.length > 0) await this.left(out);
    return out.length;
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
    await this.renewRegistrations();
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
        const before = this.state(connection).userId;
        this.setSocketState(connection, { ...this.state(connection), userId, sessionId: userId ? sessionId : null });
        this.send(connection, { type: "login_result", code: userId ? 1 : 0 });
        if (before && before !== userId) await this.left([before]);
        if (userId) {
          await this.register([userId]);
          await this.ensureSessionChecks();
        }
        return;
      }
      case "logout":
        this.setSocketState(connection, { ...state, userId: null, sessionId: null });
        if (state.userId) await this.left([state.userId]);
        return;
      case "unsub": {
        if (!(message.topic in state.topics)) {
          this.send(connection, { type: "warning", msg: "not subscribed" });
          return;
        }
        const topics = { ...state.topics };
        delete topics[message.topic];
        this.setSocketState(connection, { ...state, topics });
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
        this.setSocketState(connection, { ...current, topics: { ...current.topics, [topic]: code ? period : "" } });
        if (topic === "DAY_MARKET" || topic === "FOREX_TRADE" || topic === "FOREX_FOLLOW_TRADE" || code)
          await this.registerWithMarket(true);
        return;
      }
    }
  }

  private plan(): TickPlan {
    if (this.tickPlan) return this.tickPlan;
    const dayMarket: Connection[] = [];
    const klines: TickPlan["klines"] = new Map();
    const watchers = new Set<number>();
    let listeners = 0;
    for (const connection of this.getConnections<SocketState>()) {
      const state = connection.state;
      if (!state) continue;
      for (const [topic, period] of Object.entries(state.topics)) {
        if (topic === "FOREX_TRADE" || topic === "FOREX_FOLLOW_TRADE") {
          // live profit (own orders; followed orders) is computed by the market room only for users watching it
          if (state.userId) {
            watchers.add(state.userId);
            listeners += 1;
          }
        } else if (topic === "DAY_MARKET") {
          dayMarket.push(connection);
          listeners += 1;
        } else if (period) {
          const code = topic.slice(6);
          const key = `${code}|${period}`;
          let group = klines.get(key);
          if (!group) klines.set(key, (group = { code, period: period as Period, sockets: [] }));
          group.sockets.push(connection);
          listeners += 1;
        }
      }
    }
    return (this.tickPlan = { dayMarket, klines, watchers: [...watchers], listeners });
  }

  /** Called by MarketRoom once per tick: one serialised frame per topic, sent to the plan's sockets. */
  async receiveTick(tick: TickPayload) {
    const plan = this.plan();
    if (plan.dayMarket.length > 0) {
      const frame = JSON.stringify({
        type: "DAY_MARKET",
        data: tick.stale ? tick.quotes.map((q) => ({ ...q, stale: true })) : tick.quotes,
      });
      for (const connection of plan.dayMarket) this.sendFrame(connection, frame);
    }
    for (const { code, period, sockets } of plan.klines.values()) {
      const candle = tick.candles[code]?.[period];
      if (!candle) continue;
      const frame = JSON.stringify({ type: `KLINE.${code}`, data: { ...candle, period } });
      for (const connection of sockets) this.sendFrame(connection, frame);
    }
    if (plan.listeners > 0) await this.registerWithMarket();
    else await this.market().unregister(this.name);
    return { listeners: plan.listeners, watchers: plan.watchers };
  }

  /**
   * Per-user topics (FOREX_TRADE, FOREX_CLOSED, FOREX_FOLLOW_TRADE) on this shard only: each
   * event goes to the sockets here logged in as its user that subscribed to its topic. Answers
   * the frames sent and the users of these events with no logged-in socket here.
   */
  async deliverToUsers(events: UserEvent[]): Promise<Delivery> {
    const byUser = new Map<number, UserEvent[]>();
    for (const e of events) {
      const list = byUser.get(e.userId);
      if (list) list.push(e);
      else byUser.set(e.userId, [e]);
    }
    if (this.env.ENVIRONMENT === "local") for (const id of byUser.keys()) this.received.set(id, (this.received.get(id) ?? 0) + 1);
    const present = new Set<number>();
    let sent = 0;
    for (const connection of this.getConnections<SocketState>()) {
      const s = connection.state;
      const mine = s?.userId ? byUser.get(s.userId) : undefined;
      if (!mine) continue;
      present.add(s!.userId!);
      for (const e of mine) {
        if (e.topic in (s!.topics ?? {})) {
          this.send(connection, { type: e.topic, data: e.data });
          sent += 1;
        }
      }
    }
    return { sent, absent: [...byUser.keys()].filter((id) => !present.has(id)) };
  }

  /**
   * Per-user events sent to this shard as their users' home (app/services/live.server.ts
   * publishToUsers): delivered to the sockets here, and forwarded to the shards that registered
   * sockets of these users. One call carries a whole batch; answers the frames sent everywhere.
   */
  async publishToUsers(events: UserEvent[]): Promise<number> {
    let { sent } = await this.deliverToUsers(events);
    const now = Date.now();
    const registry = this.registry(now);
    const forward = new Map<string, UserEvent[]>();
    for (const e of events) {
      const shards = registry.get(e.userId);
      if (!shards) continue;
      for (const [shard, expires] of shards) {
        if (expires <= now) {
          this.forget(e.userId, shard);
          continue;
        }
        const list = forward.get(shard);
        if (list) list.push(e);
        else forward.set(shard, [e]);
      }
    }
    const names = [...forward.keys()];
    const results = await Promise.allSettled(names.map((name) => this.room(name).deliverToUsers(forward.get(name)!)));
    results.forEach((r, i) => {
      if (r.status === "rejected") {
        console.error(`user events to ${names[i]} failed`, r.reason);
        return;
      }
      sent += r.value.sent;
      // a shard that holds none of a user's sockets any more (it restarted, or a close was lost) drops out
      for (const id of r.value.absent) this.forget(id, names[i]!);
    });
    return sent;
  }

  /** Local runs and tests only: this shard's logged-in users, its registry and the event batches it received per user. */
  async liveView() {
    if (this.env.ENVIRONMENT !== "local") throw new Error("local runs and tests only");
    const remotes: { userId: number; shard: string; expiresAt: number }[] = [];
    for (const [userId, shards] of this.registry()) for (const [shard, expiresAt] of shards) remotes.push({ userId, shard, expiresAt });
    return {
      name: this.name,
      users: [...this.usersHere()],
      remotes,
      received: Object.fromEntries(this.received) as Record<string, number>,
    };
  }

  /** One event for one user (kept for callers that publish a single event). */
  async publishToUser(userId: number, topic: UserEvent["topic"], data: unknown) {
    return this.publishToUsers([{ userId, topic, data }]);
  }
}
