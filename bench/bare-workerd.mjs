// The fan-out's second baseline: the same broadcast with none of Bourse's code, on the same
// runtime. A Worker in a workerd process of its own (Miniflare) routes each WebSocket upgrade to
// one of `shards` hub objects (hibernatable sockets, as the live shards have); a clock object's
// 1 s alarm builds the frame and hands it to every hub at once, and each hub sends it to its
// sockets. The topology of /v2/ws (clock → live shards → sockets) without sessions, topics, tick
// plans or the engine, so what this measures is the floor that workerd itself sets here.
import { Miniflare } from "miniflare";

const SCRIPT = /* js */ `
import { DurableObject } from "cloudflare:workers";

export class Hub extends DurableObject {
  async fetch() {
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }
  broadcast(frame) {
    for (const ws of this.ctx.getWebSockets()) {
      try { ws.send(frame); } catch {}
    }
  }
  webSocketMessage() {}
  webSocketClose() {}
}

export class Clock extends DurableObject {
  async start() {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + 1000);
  }
  async alarm() {
    const time = Date.now();
    await this.ctx.storage.setAlarm(time + 1000);
    const quotes = this.env.QUOTES;
    const frame = JSON.stringify({ type: "DAY_MARKET", data: quotes.map((q) => ({ ...q, time })) });
    const hubs = Array.from({ length: this.env.SHARDS }, (_, i) => this.env.HUB.get(this.env.HUB.idFromName("hub" + i)));
    await Promise.all(hubs.map((hub) => hub.broadcast(frame)));
  }
}

export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname === "/start") {
      await env.CLOCK.get(env.CLOCK.idFromName("clock")).start();
      return new Response("started");
    }
    const i = Math.floor(Math.random() * env.SHARDS);
    return env.HUB.get(env.HUB.idFromName("hub" + i)).fetch(request);
  },
};
`;

/**
 * Starts the bare broadcast in its own workerd process with the frame's quotes (the same as the
 * other baseline's) and `shards` hubs. Answers its WebSocket URL and a close function.
 */
export async function bareWorkerdServer(quotes, { shards, compatibilityDate }) {
  const mf = new Miniflare({
    modules: true,
    script: SCRIPT,
    compatibilityDate,
    bindings: { QUOTES: quotes, SHARDS: shards },
    durableObjects: { HUB: "Hub", CLOCK: "Clock" },
  });
  const url = await mf.ready;
  await (await mf.dispatchFetch(`${url.origin}/start`)).text();
  return { url: `${url.origin.replace("http", "ws")}/ws`, close: () => mf.dispose() };
}
