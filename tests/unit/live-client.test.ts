// The browser's socket client against a local server speaking the spec §4 protocol.
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer, WebSocket } from "ws";
import { LiveClient, type LiveStatus, type Network } from "~/lib/live-client";

let server: WebSocketServer | null = null;
let client: LiveClient | null = null;
afterEach(() => {
  client?.close();
  server?.close();
  client = null;
  server = null;
});

function startServer(answerPings: () => boolean) {
  const received: Record<string, unknown>[] = [];
  let connections = 0;
  let open = 0;
  server = new WebSocketServer({ port: 0 });
  server.on("connection", (ws) => {
    connections += 1;
    open += 1;
    ws.on("close", () => (open -= 1));
    ws.on("message", (raw) => {
      const m = JSON.parse(String(raw));
      received.push(m);
      if (m.type === "ping" && answerPings()) ws.send(JSON.stringify({ type: "pong", timestamp: m.timestamp }));
      if (m.type === "login") ws.send(JSON.stringify({ type: "login_result", code: 1 }));
      if (m.type === "sub" && m.topic === "DAY_MARKET")
        ws.send(JSON.stringify({ type: "DAY_MARKET", data: [{ Code: "BTCUSDT", Close: 1 }] }));
    });
  });
  const port = (server.address() as { port: number }).port;
  return { url: `ws://127.0.0.1:${port}/v2/ws`, received, connections: () => connections, open: () => open };
}

/** The device's network as a test drives it: goes on- and offline the way the browser says so. */
function fakeNetwork(onLine: boolean) {
  const target = new EventTarget();
  const network = {
    onLine,
    addEventListener: (type: "online" | "offline", listener: () => void) => target.addEventListener(type, listener),
    removeEventListener: (type: "online" | "offline", listener: () => void) => target.removeEventListener(type, listener),
    set(value: boolean) {
      network.onLine = value;
      target.dispatchEvent(new Event(value ? "online" : "offline"));
    },
  } satisfies Network & { set(value: boolean): void };
  return network;
}

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe("live socket client", () => {
  it("logs in, subscribes, receives topic data and goes live", async () => {
    const s = startServer(() => true);
    client = new LiveClient("ticket-1", { url: s.url, pingIntervalMs: 50, WebSocket, minReconnectionDelay: 10 });
    const data: unknown[] = [];
    client.subscribe("DAY_MARKET", (d) => data.push(d));
    await until(() => data.length > 0);
    expect(s.received.slice(0, 2)).toEqual([
      { type: "login", token: "ticket-1" },
      { type: "sub", topic: "DAY_MARKET" },
    ]);
    expect(client.status).toBe("live");
  });

  it("reconnects after more than 2 unanswered pings, then logs in and resubscribes", async () => {
    let answer = false;
    const s = startServer(() => answer);
    client = new LiveClient("ticket-2", { url: s.url, pingIntervalMs: 40, WebSocket, minReconnectionDelay: 10 });
    const statuses: LiveStatus[] = [];
    client.onStatus((st) => statuses.push(st));
    client.subscribe("KLINE.BTCUSDT", () => {}, "1min");
    await until(() => s.connections() >= 2, 3000);
    answer = true;
    await until(() => s.received.filter((m) => m.type === "login").length >= 2);
    await until(() => s.received.filter((m) => m.type === "sub").length >= 2);
    expect(s.received.filter((m) => m.type === "sub").at(-1)).toEqual({ type: "sub", topic: "KLINE.BTCUSDT", period: "1min" });
    expect(statuses).toContain("reconnecting");
    const pingsBeforeReconnect = s.received.findIndex((m, i) => i > 0 && m.type === "login");
    expect(s.received.slice(0, pingsBeforeReconnect).filter((m) => m.type === "ping").length).toBeGreaterThan(2);
  });

  it("unsubscribes when the last handler leaves", async () => {
    const s = startServer(() => true);
    client = new LiveClient(null, { url: s.url, pingIntervalMs: 1000, WebSocket, minReconnectionDelay: 10 });
    const off = client.subscribe("DAY_MARKET", () => {});
    await until(() => s.received.some((m) => m.type === "sub"));
    off();
    await until(() => s.received.some((m) => m.type === "unsub"));
    expect(s.received.find((m) => m.type === "unsub")).toEqual({ type: "unsub", topic: "DAY_MARKET" });
  });

  it("says offline when the network drops (the socket closes, no reconnecting) and is live again when it is back", async () => {
    const s = startServer(() => true);
    const network = fakeNetwork(true);
    client = new LiveClient(null, { url: s.url, pingIntervalMs: 50, WebSocket, minReconnectionDelay: 10, network });
    const statuses: LiveStatus[] = [];
    client.onStatus((st) => statuses.push(st));
    await until(() => client!.status === "live");
    network.set(false);
    expect(client.status).toBe("offline");
    await until(() => s.open() === 0);
    expect(client.status).toBe("offline");
    network.set(true);
    await until(() => client!.status === "live");
    expect(s.connections()).toBe(2);
    expect(statuses).toEqual(["live", "offline", "reconnecting", "live"]);
  });

  it("starts offline on a device without network and connects once the network is there", async () => {
    const s = startServer(() => true);
    const network = fakeNetwork(false);
    client = new LiveClient(null, { url: s.url, pingIntervalMs: 50, WebSocket, minReconnectionDelay: 10, network });
    expect(client.status).toBe("offline");
    expect(s.connections()).toBe(0);
    network.set(true);
    await until(() => client!.status === "live");
    expect(s.connections()).toBe(1);
  });
});
