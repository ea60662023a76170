// Sockets across LiveRoom shards (docs/decisions/018-scale.md, "Socket shards by user"): real
// shards, real sockets through the Worker's /v2/ws. A signed-in upgrade lands on its user's home
// shard; a socket that logs in later on another shard is registered with the home shard, which
// forwards the user's events to it (and only to it) until it closes.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createServiceContext } from "~/context.server";
import { Side } from "~/domain/contract";
import { LIVE_SHARDS, homeShard, liveShardName } from "~/domain/rooms";
import { placeOrder } from "~/services/contract/commands.server";
import { publishToUsers } from "~/services/live.server";
import { REMOTE_TTL_MS } from "../../party/live-room";
import { createUser, fund, holdPrice, openSocket, sessionFor, signedSessionCookie } from "./helpers";

const USD = 1_000_000;
const shard = (name: string) => env.LIVE_ROOM.get(env.LIVE_ROOM.idFromName(name));
const shardNames = Array.from({ length: LIVE_SHARDS }, (_, i) => liveShardName(i));
const views = () => Promise.all(shardNames.map((name) => shard(name).liveView()));
/** The shards holding a logged-in socket of this user. */
const shardsOf = async (userId: number) => (await views()).filter((v) => v.users.includes(userId)).map((v) => v.name);
/** How many event batches for this user each shard has received. */
const receivedBy = async (userId: number) => Object.fromEntries((await views()).map((v) => [v.name, v.received[String(userId)] ?? 0]));

type Socket = Awaited<ReturnType<typeof openSocket>>;

async function login(s: Socket, token: string) {
  s.send({ type: "login", token });
  expect(await s.next((m) => m.type === "login_result")).toEqual({ type: "login_result", code: 1 });
}

/** A round trip: every frame the shard sent this socket before the pong is in its inbox. */
async function settle(s: Socket, timestamp: number) {
  s.send({ type: "ping", timestamp });
  await s.next((m) => m.type === "pong" && m.timestamp === timestamp);
}

/** An anonymous socket that logs in as the user and lands on a shard other than the user's home (retried until one does). */
async function loggedInElsewhere(userId: number, token: string): Promise<{ socket: Socket; shard: string }> {
  for (let attempt = 0; attempt < 40; attempt++) {
    const s = await openSocket();
    await login(s, token);
    // earlier attempts all landed at home, so a non-home shard holding the user holds this socket
    const elsewhere = (await shardsOf(userId)).filter((name) => name !== homeShard(userId));
    if (elsewhere.length === 1) return { socket: s, shard: elsewhere[0]! };
    s.ws.close();
  }
  throw new Error("no socket landed on another shard in 40 tries");
}

/** Waits until a predicate over the shards' views holds (a close reaches the home shard after the client's close returns). */
async function until(predicate: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("socket shards by user", () => {
  it("a signed-in upgrade (authorization header or session cookie) lands on its user's home shard", async () => {
    expect(LIVE_SHARDS).toBeGreaterThan(1);
    const sockets: Socket[] = [];
    const users: number[] = [];
    for (let i = 0; i < 8; i++) {
      const user = await createUser();
      const token = await sessionFor(user.id);
      const s = await openSocket(i % 2 === 0 ? { authorization: token } : { cookie: await signedSessionCookie(token) });
      await login(s, token);
      sockets.push(s);
      users.push(user.id);
    }
    // eight users over several shards: random placement would put all eight at home once in 4^8
    expect(new Set(users.map((id) => homeShard(id))).size).toBeGreaterThan(1);
    for (const id of users) expect(await shardsOf(id)).toEqual([homeShard(id)]);
    // on its home shard a socket registers with nobody
    for (const v of await views()) expect(v.remotes.filter((r) => users.includes(r.userId))).toEqual([]);
    for (const s of sockets) s.ws.close();
  });

  it("a socket that logs in later on another shard gets its user's events (fills and closes through the engine too), another user's socket does not, and after it closes the home shard no longer forwards", async () => {
    const alice = await createUser();
    await fund(alice.accounts.contract, 5_000 * USD);
    const aliceToken = await sessionFor(alice.id);
    const home = homeShard(alice.id);
    const atHome = await openSocket({ authorization: aliceToken });
    await login(atHome, aliceToken);
    const { socket: away, shard: remote } = await loggedInElsewhere(alice.id, aliceToken);
    expect(remote).not.toBe(home);
    // bob: another user whose home is the shard alice's second socket sits on
    let bob = await createUser();
    for (let i = 0; homeShard(bob.id) !== remote && i < 60; i++) bob = await createUser();
    expect(homeShard(bob.id)).toBe(remote);
    const bobToken = await sessionFor(bob.id);
    const bobSocket = await openSocket({ authorization: bobToken });
    await login(bobSocket, bobToken);
    for (const s of [atHome, away, bobSocket]) s.send({ type: "sub", topic: "FOREX_CLOSED" });
    for (const s of [atHome, away, bobSocket]) await settle(s, 1);

    // the home shard holds the registration, in its storage (it hibernates)
    const homeView = (await views()).find((v) => v.name === home)!;
    expect(homeView.remotes.filter((r) => r.userId === alice.id).map((r) => r.shard)).toEqual([remote]);
    const stored = await runInDurableObject(shard(home), (_instance, state) =>
      [...state.storage.sql.exec<{ shard: string }>("SELECT shard FROM live_remote WHERE user_id = ?", alice.id)].map((r) => r.shard),
    );
    expect(stored).toEqual([remote]);

    // an event through the services: both of alice's sockets, not bob's
    const before = await receivedBy(alice.id);
    expect(await publishToUsers(env, [{ userId: alice.id, topic: "FOREX_CLOSED", data: [101] }])).toBe(2);
    expect(await atHome.next((m) => m.type === "FOREX_CLOSED")).toEqual({ type: "FOREX_CLOSED", data: [101] });
    expect(await away.next((m) => m.type === "FOREX_CLOSED")).toEqual({ type: "FOREX_CLOSED", data: [101] });
    await settle(bobSocket, 2);
    expect(bobSocket.inbox.filter((m) => m.type === "FOREX_CLOSED")).toEqual([]);
    // only the shards holding alice's sockets received her events
    const after = await receivedBy(alice.id);
    for (const name of shardNames) expect(after[name]! - before[name]!).toBe(name === home || name === remote ? 1 : 0);

    // a close by the engine (take-profit reached), published by the market room's publisher
    await holdPrice("ETHUSDT", 2_000);
    const ctx = await createServiceContext(env);
    const tp = await placeOrder(ctx, alice.id, {
      side: Side.Buy,
      lots: "0.1",
      instrumentId: 2,
      entry: 1,
      leverage: 20,
      takeProfit: "2050",
    });
    if (!tp.ok) throw new Error("placing failed");
    await holdPrice("ETHUSDT", 2_060);
    expect((await away.next((m) => m.type === "FOREX_CLOSED")).data).toEqual([tp.value.id]);
    expect((await atHome.next((m) => m.type === "FOREX_CLOSED")).data).toEqual([tp.value.id]);
    await settle(bobSocket, 3);
    expect(bobSocket.inbox.filter((m) => m.type === "FOREX_CLOSED")).toEqual([]);

    // the away socket closes: its shard unregisters it, and the home shard stops forwarding
    away.ws.close();
    await until(
      async () => !(await views()).find((v) => v.name === home)!.remotes.some((r) => r.userId === alice.id),
      "the registration is removed",
    );
    const stored2 = await runInDurableObject(
      shard(home),
      (_instance, state) => [...state.storage.sql.exec("SELECT shard FROM live_remote WHERE user_id = ?", alice.id)].length,
    );
    expect(stored2).toBe(0);
    const before2 = await receivedBy(alice.id);
    expect(await publishToUsers(env, [{ userId: alice.id, topic: "FOREX_CLOSED", data: [102] }])).toBe(1);
    expect(await atHome.next((m) => m.type === "FOREX_CLOSED")).toEqual({ type: "FOREX_CLOSED", data: [102] });
    const after2 = await receivedBy(alice.id);
    for (const name of shardNames) expect(after2[name]! - before2[name]!).toBe(name === home ? 1 : 0);
    atHome.ws.close();
    bobSocket.ws.close();
  });

  it("a logout on the other shard removes the registration; a registration not renewed expires; one whose shard holds no socket of the user is dropped", async () => {
    const carol = await createUser();
    const token = await sessionFor(carol.id);
    const home = homeShard(carol.id);
    const { socket, shard: remote } = await loggedInElsewhere(carol.id, token);
    const registered = async () => (await shard(home).liveView()).remotes.filter((r) => r.userId === carol.id).map((r) => r.shard);
    expect(await registered()).toEqual([remote]);
    socket.send({ type: "logout" });
    await until(async () => (await registered()).length === 0, "the logout unregisters");

    // a registration whose renewals stopped (its shard crashed): gone once past its expiry
    const other = shardNames.find((name) => name !== home && name !== remote) ?? remote;
    await shard(home).registerSockets(other, [carol.id], Date.now() - REMOTE_TTL_MS - 1);
    expect(await registered()).toEqual([other]);
    const before = await receivedBy(carol.id);
    expect(await publishToUsers(env, [{ userId: carol.id, topic: "FOREX_CLOSED", data: [1] }])).toBe(0);
    expect(await registered()).toEqual([]);
    expect((await receivedBy(carol.id))[other]).toBe(before[other]);

    // a live registration whose shard no longer holds the user's socket: that shard says so once, and is dropped
    await shard(home).registerSockets(other, [carol.id]);
    expect(await publishToUsers(env, [{ userId: carol.id, topic: "FOREX_CLOSED", data: [2] }])).toBe(0);
    expect(await registered()).toEqual([]);
    socket.ws.close();
  });
});
