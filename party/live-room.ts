/**
 * LiveRoom: the browser-facing relay of spec §4 at /v2/ws. This foundation version speaks the
 * session part of the protocol (login with a token checked against D1, logout, ping/pong,
 * validated frames with warnings); market topics are added by the live-market issue.
 */
import { Server, type Connection, type WSMessage } from "partyserver";
import { userForToken } from "~/services/session.server";

const MAX_FRAME = 4096;

interface ConnState {
  userId: number | null;
  topics: readonly string[];
}

export class LiveRoom extends Server<Env> {
  static override options = { hibernate: true };

  private send(connection: Connection, message: unknown) {
    connection.send(JSON.stringify(message));
  }

  override async onMessage(connection: Connection<ConnState>, raw: WSMessage) {
    if (typeof raw !== "string" || raw.length > MAX_FRAME) {
      this.send(connection, { type: "warning", msg: "frame must be JSON text up to 4 KB" });
      return;
    }
    let message: { type?: unknown; token?: unknown; topic?: unknown; timestamp?: unknown };
    try {
      message = JSON.parse(raw);
    } catch {
      this.send(connection, { type: "warning", msg: "malformed JSON" });
      return;
    }
    if (!message || typeof message !== "object" || typeof message.type !== "string") {
      this.send(connection, { type: "warning", msg: "message without type" });
      return;
    }
    const state: ConnState = connection.state ?? { userId: null, topics: [] };
    switch (message.type) {
      case "ping":
        this.send(connection, { type: "pong", timestamp: typeof message.timestamp === "number" ? message.timestamp : Date.now() });
        return;
      case "login": {
        const user = typeof message.token === "string" ? await userForToken(this.env.DB, message.token) : null;
        connection.setState({ ...state, userId: user?.id ?? null });
        this.send(connection, { type: "login_result", code: user ? 1 : 0 });
        return;
      }
      case "logout":
        connection.setState({ ...state, userId: null });
        return;
      case "sub":
      case "unsub": {
        const topic = typeof message.topic === "string" ? message.topic : "";
        if (message.type === "unsub" && !state.topics.includes(topic)) {
          this.send(connection, { type: "warning", msg: `not subscribed: ${topic.slice(0, 64)}` });
          return;
        }
        this.send(connection, { type: "warning", msg: `unknown topic: ${topic.slice(0, 64)}` });
        return;
      }
      default:
        this.send(connection, { type: "warning", msg: `unknown message type: ${message.type.slice(0, 32)}` });
    }
  }
}
