/**
 * LiveRoom: a shard of the browser-facing relay at /v2/ws (spec §4). Each socket may log in with
 * a session token (checked against D1), subscribe to DAY_MARKET and KLINE.{code} (with its
 * period), and receives per-user topics. The shard gets each market tick once from MarketRoom
 * and fans it out: one serialised frame per topic, sent to every socket that wants it.
 */
import { Server, getServerByName, type Connection, type ConnectionContext, type WSMessage } from "partyserver";
import { resolveSocketLogin } from "~/services/socket-auth.server";
import { DEFAULT_PERIOD, type Period } from "./market/sim";
import { MARKET_ROOM } from "./names";
import { USER_TOPICS, klineCode, parseClientMessage, type ServerMessage, type TickPayload } from "./protocol";

interface SocketState {
  userId: number | null;
  /** topic → period (for KLINE topics) or "" */
  topics: Record<string, string>;
}

const MAX_TOPICS = 32;
const REGISTER_EVERY_MS = 30_000;

export class LiveRoom extends Server<Env> {
  static override options = { hibernate: true };

  private lastRegister = 0;
  private knownCodes: Set<string> | null = null;

  private send(connection: Connection, message: ServerMessage) {
    try {
      connection.send(JSON.stringify(message));
    } catch {
      // the socket closed meanwhile
    }
  }

  private state(connection: Connection<SocketState>): SocketState {
    return connection.state ?? { userId: null, topics: {} };
  }

  override onConnect(connection: Connection<SocketState>, _ctx: ConnectionContext) {
    connection.setState({ userId: null, topics: {} });
  }

  private async codes(): Promise<Set<string>> {
    if (!this.knownCodes) {
      const { results } = await this.env.DB.prepare("SELECT code FROM instruments WHERE status = 1").all<{ code: string }>();
      this.knownCodes = new Set(results.map((r) => r.code));
    }
    return this.knownCodes;
  }

  private async registerWithMarket(force = false) {
    if (!force && Date.now() - this.lastRegister < REGISTER_EVERY_MS) return;
    this.lastRegister = Date.now();
    const market = await getServerByName(this.env.MARKET_ROOM, MARKET_ROOM);
    await market.register(this.name);
  }

  override async onMessage(connection: Connection<SocketState>, raw: WSMessage) {
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
        const userId = await resolveSocketLogin(this.env, message.token);
        connection.setState({ ...state, userId });
        this.send(connection, { type: "login_result", code: userId ? 1 : 0 });
        return;
      }
      case "logout":
        connection.setState({ ...state, userId: null });
        return;
      case "unsub": {
        if (!(message.topic in state.topics)) {
          this.send(connection, { type: "warning", msg: `not subscribed: ${message.topic}` });
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
        const isUserTopic = (USER_TOPICS as readonly string[]).includes(topic);
        if (topic !== "DAY_MARKET" && !isUserTopic && !(code && (await this.codes()).has(code))) {
          this.send(connection, { type: "warning", msg: `unknown topic: ${topic}` });
          return;
        }
        if (Object.keys(state.topics).length >= MAX_TOPICS && !(topic in state.topics)) {
          this.send(connection, { type: "warning", msg: "too many topics" });
          return;
        }
        const period: Period = code ? (message.period ?? DEFAULT_PERIOD) : DEFAULT_PERIOD;
        connection.setState({ ...state, topics: { ...state.topics, [topic]: code ? period : "" } });
        if (topic === "DAY_MARKET" || code) await this.registerWithMarket(true);
        return;
      }
    }
  }

  /** Called by MarketRoom once per tick. */
  async receiveTick(tick: TickPayload) {
    let dayMarket: string | null = null;
    const klineFrames = new Map<string, string>();
    let listeners = 0;
    for (const connection of this.getConnections<SocketState>()) {
      const topics = connection.state?.topics;
      if (!topics) continue;
      for (const [topic, period] of Object.entries(topics)) {
        if (topic === "DAY_MARKET") {
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
    else {
      const market = await getServerByName(this.env.MARKET_ROOM, MARKET_ROOM);
      await market.unregister(this.name);
    }
    return listeners;
  }

  /** Per-user topics (FOREX_TRADE, FOREX_CLOSED, FOREX_FOLLOW_TRADE): only that user's sockets. */
  async publishToUser(userId: number, topic: string, data: unknown) {
    const frame = JSON.stringify({ type: topic, data });
    let sent = 0;
    for (const connection of this.getConnections<SocketState>()) {
      const s = connection.state;
      if (s?.userId === userId && topic in (s.topics ?? {})) {
        connection.send(frame);
        sent += 1;
      }
    }
    return sent;
  }
}
