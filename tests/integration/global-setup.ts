// Runs in Node before the workerd tests: local upstream servers speaking the spec §4 protocol
// and Binance's stream format, for the MarketRoom's feed tests.
import type { TestProject } from "vitest/node";
import { WebSocketServer } from "ws";

declare module "vitest" {
  export interface ProvidedContext {
    specUpstreamPort: number;
    binanceUpstreamPort: number;
  }
}

export default async function setup(project: TestProject) {
  const spec = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  spec.on("connection", (ws) => {
    let timer: ReturnType<typeof setInterval> | undefined;
    ws.on("message", (raw) => {
      const m = JSON.parse(String(raw));
      if (m.type === "ping") ws.send(JSON.stringify({ type: "pong", timestamp: m.timestamp }));
      if (m.type === "sub" && m.topic === "DAY_MARKET") {
        const send = () =>
          ws.send(
            JSON.stringify({
              type: "DAY_MARKET",
              data: [
                {
                  Code: "BTCUSDT",
                  ShowCode: "BTC/USDT",
                  Open: 60000,
                  Close: 61234.56,
                  High: 62000,
                  Low: 59000,
                  Change: 2.06,
                  Volume: 321,
                  MarketStatus: 1,
                  time: Date.now(),
                },
              ],
            }),
          );
        send();
        timer = setInterval(send, 200);
      }
    });
    ws.on("close", () => clearInterval(timer));
  });
  const binance = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  binance.on("connection", (ws) => {
    const timer = setInterval(
      () =>
        ws.send(
          JSON.stringify({
            stream: "ethusdt@ticker",
            data: { e: "24hrTicker", E: Date.now(), s: "ETHUSDT", o: "3000.00", h: "3300.00", l: "2900.00", c: "3210.99", v: "999.5" },
          }),
        ),
      200,
    );
    ws.on("close", () => clearInterval(timer));
  });
  await Promise.all([spec, binance].map((server) => new Promise((resolve) => server.once("listening", resolve))));
  project.provide("specUpstreamPort", (spec.address() as { port: number }).port);
  project.provide("binanceUpstreamPort", (binance.address() as { port: number }).port);
  return () => {
    spec.close();
    binance.close();
  };
}
