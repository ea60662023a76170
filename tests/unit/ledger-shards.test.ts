// The ledger past one database (docs/decisions/019-past-one-database.md), simulated: several
// ledger shards, transfers within a shard and across shards (two steps through an outbox), and
// random failures: a crash after the debit before anything is sent, deliveries lost, delayed,
// reordered and delivered twice, acknowledgements lost, credits refused by a closed or unknown
// account, shards restarted (what was on its way to them lost, down for a while). The outbox
// sends again until acknowledged. After EVERY step the invariants hold (no money created or lost,
// in-transit included; no user account below zero; no transfer credited twice), and once the
// failures stop and the outboxes drain, nothing is left in transit and every balance is what the
// transfers that went through (or came back) say it must be.
import { describe, expect, it } from "vitest";
import {
  DEPOSITS,
  FEES,
  TRANSIT,
  beginTransfer,
  checkShards,
  clearingAccount,
  createShard,
  inTransit,
  outboxMessages,
  post,
  receiveAck,
  receiveCredit,
  transferWithin,
  type LedgerShard,
  type ShardMessage,
} from "~/domain/ledger-shards";

/** mulberry32: a small seeded generator, so a failing run can be replayed from its seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
}

const USD = 1_000_000;
const SHARDS = 4;
const USERS_PER_SHARD = 5;
const user = (shard: number, i: number) => `user:${shard}:${i}`;

interface Sim {
  shards: LedgerShard[];
  network: ShardMessage[];
  /** Steps each shard stays down after a restart (0: up). */
  down: number[];
  /** What each user account must hold, kept apart from the shards: deposits, same-shard moves, and each cross-shard transfer's debit, credit or return. */
  expected: Map<string, number>;
  cross: Map<string, { from: string; fromShard: number; to: string; toShard: number; amount: number }>;
  /** The relay's timer: the step each pending transfer was last sent at (sent again 20 steps later if still pending). */
  lastSent: Map<string, number>;
  seen: Record<string, number>;
}

function setUp(): Sim {
  const shards = Array.from({ length: SHARDS }, (_, s) =>
    createShard(
      s,
      Array.from({ length: USERS_PER_SHARD }, (_, i) => user(s, i)),
    ),
  );
  const expected = new Map<string, number>();
  for (const s of shards) {
    for (let i = 0; i < USERS_PER_SHARD; i++) {
      const amount = (100 + 37 * i) * USD + 123_457 * s.id; // whole dollars and odd micros
      expect(
        post(s, {
          key: `deposit:${user(s.id, i)}`,
          kind: "deposit",
          entries: [
            { account: DEPOSITS, amount: -amount },
            { account: user(s.id, i), amount },
          ],
        }),
      ).toEqual({ ok: true, replayed: false });
      expected.set(user(s.id, i), amount);
    }
  }
  return { shards, network: [], down: shards.map(() => 0), expected, cross: new Map(), lastSent: new Map(), seen: {} };
}

const count = (sim: Sim, what: string) => (sim.seen[what] = (sim.seen[what] ?? 0) + 1);
const add = (sim: Sim, account: string, amount: number) => sim.expected.set(account, (sim.expected.get(account) ?? 0) + amount);

/** Puts messages on the wire; with failures on, each may be lost or sent twice. */
function send(sim: Sim, r: ReturnType<typeof rng>, messages: ShardMessage[], failures: boolean) {
  for (const m of messages) {
    if (failures && r.chance(0.15)) {
      count(sim, `${m.type} lost on the wire`);
      continue;
    }
    sim.network.push(m);
    if (failures && r.chance(0.1)) {
      sim.network.push({ ...m });
      count(sim, `${m.type} sent twice`);
    }
  }
}

/** Delivers the message at `index` (any order: the network reorders). */
function deliver(sim: Sim, r: ReturnType<typeof rng>, index: number, failures: boolean) {
  const [m] = sim.network.splice(index, 1);
  if (!m) return;
  if (sim.down[m.toShard]! > 0) return void count(sim, `${m.type} lost: shard down`);
  if (failures && r.chance(0.05)) return void count(sim, `${m.type}: receiver crashed before its batch committed`);
  const shard = sim.shards[m.toShard]!;
  if (m.type === "ack") {
    const item = shard.outbox.get(m.transferId)!;
    const wasPending = item.state === "pending";
    receiveAck(shard, m);
    if (wasPending && item.state === "returned") {
      add(sim, item.from, item.amount);
      count(sim, "returned to the sender");
    }
    if (!wasPending) count(sim, "ack again: ignored");
    return;
  }
  const answeredBefore = shard.inbox.has(m.transferId);
  const ack = receiveCredit(shard, m);
  if (answeredBefore) count(sim, "credit delivered again: answered, not paid");
  else if (ack.outcome === "credited") add(sim, m.toAccount, m.amount);
  else count(sim, "credit refused");
  if (failures && r.chance(0.1)) return void count(sim, "receiver crashed after its batch, before the ack");
  send(sim, r, [ack], failures);
}

/** One random step: a transfer, a relay pass, a delivery, or a failure. */
function step(sim: Sim, r: ReturnType<typeof rng>, n: number) {
  for (let i = 0; i < SHARDS; i++) sim.down[i] = Math.max(0, sim.down[i]! - 1);
  const up = sim.shards.filter((s) => sim.down[s.id] === 0);
  const roll = r.next();
  if (roll < 0.3 && up.length > 0) {
    const s = up[r.int(up.length)]!;
    const from = user(s.id, r.int(USERS_PER_SHARD));
    const balance = s.accounts.get(from)!.balance;
    // now and then more than the balance: refused whole, nothing moves
    const amount = 1 + r.int(Math.max(1, Math.floor(balance * (r.chance(0.1) ? 1.5 : 0.3))));
    const id = `t${n}`;
    if (r.chance(0.35)) {
      const to = r.chance(0.2) ? FEES : user(s.id, r.int(USERS_PER_SHARD));
      const out = transferWithin(s, id, from, to, amount, to === FEES ? "trade_fee" : "transfer");
      if (out.ok) {
        add(sim, from, -amount);
        if (to !== FEES) add(sim, to, amount);
        count(sim, "same-shard transfer");
      } else count(sim, `same-shard refused: ${out.reason}`);
      return;
    }
    const toShard = (s.id + 1 + r.int(SHARDS - 1)) % SHARDS;
    // a copy-trading profit share (follower here, trader there) or a transfer; now and then to an account that does not exist
    const to = r.chance(0.03) ? `user:${toShard}:ghost` : user(toShard, r.int(USERS_PER_SHARD));
    const out = beginTransfer(s, {
      transferId: id,
      kind: r.chance(0.5) ? "trade_settle" : "transfer",
      from,
      toShard,
      toAccount: to,
      amount,
    });
    if (!out.ok) return void count(sim, `cross-shard refused: ${out.reason}`);
    add(sim, from, -amount);
    sim.cross.set(id, { from, fromShard: s.id, to, toShard, amount });
    count(sim, "cross-shard begun");
    // crash after the debit, before the relay sent anything: the outbox sends it on a later pass
    if (r.chance(0.3)) return void count(sim, "crash after the debit, before delivery");
    sim.lastSent.set(id, n);
    send(
      sim,
      r,
      outboxMessages(s).filter((m) => m.transferId === id),
      true,
    );
  } else if (roll < 0.45 && up.length > 0) {
    const s = up[r.int(up.length)]!;
    const due = outboxMessages(s).filter((m) => n - (sim.lastSent.get(m.transferId) ?? -Infinity) >= 20);
    for (const m of due) sim.lastSent.set(m.transferId, n);
    send(sim, r, due, true);
    count(sim, "relay pass");
  } else if (roll < 0.8) {
    for (let k = 1 + r.int(3); k > 0 && sim.network.length > 0; k--) deliver(sim, r, r.int(sim.network.length), true);
  } else if (roll < 0.85) {
    if (sim.network.length > 0) {
      sim.network.push({ ...sim.network[r.int(sim.network.length)]! });
      count(sim, "delivered twice");
    }
  } else if (roll < 0.88) {
    if (sim.network.length > 0) {
      sim.network.splice(r.int(sim.network.length), 1);
      count(sim, "delivery lost");
    }
  } else if (roll < 0.91) {
    const s = r.int(SHARDS);
    sim.network = sim.network.filter((m) => m.toShard !== s);
    sim.down[s] = 1 + r.int(25);
    count(sim, "shard restarted");
  } else if (roll < 0.96) {
    const s = sim.shards[r.int(SHARDS)]!;
    const account = s.accounts.get(user(s.id, r.int(USERS_PER_SHARD)))!;
    account.open = !account.open;
    count(sim, account.open ? "account reopened" : "account closed");
  } else {
    const s = sim.shards[r.int(SHARDS)]!;
    const to = user(s.id, r.int(USERS_PER_SHARD));
    const amount = 1 + r.int(50 * USD);
    expect(
      post(s, {
        key: `deposit:${n}`,
        kind: "deposit",
        entries: [
          { account: DEPOSITS, amount: -amount },
          { account: to, amount },
        ],
      }).ok,
    ).toBe(true);
    add(sim, to, amount);
  }
}

/** No more failures: every shard up, the outboxes send until every transfer is acknowledged. */
function drain(sim: Sim, r: ReturnType<typeof rng>) {
  sim.down.fill(0);
  for (let pass = 0; pass < 10 && (inTransit(sim.shards) > 0 || sim.network.length > 0); pass++) {
    for (const s of sim.shards) send(sim, r, outboxMessages(s), false);
    while (sim.network.length > 0) {
      deliver(sim, r, r.int(sim.network.length), false);
      expect(checkShards(sim.shards)).toEqual([]);
    }
  }
}

function balances(sim: Sim) {
  const out = new Map<string, number>();
  for (const s of sim.shards) for (const a of s.accounts.values()) if (a.role === "user") out.set(a.code, a.balance);
  return out;
}

describe("ledger shards: cross-shard transfers under random failures", () => {
  for (const seed of [20, 1_000_003, 424_242]) {
    it(`seed ${seed}: after every one of 3,000 steps no money is created or lost and no transfer is paid twice; drained, nothing is left in transit`, () => {
      const r = rng(seed);
      const sim = setUp();
      for (let n = 0; n < 3_000; n++) {
        step(sim, r, n);
        const problems = checkShards(sim.shards);
        if (problems.length > 0) expect.fail(`seed ${seed}, step ${n}: ${problems.join("; ")}`);
      }
      // the run met every failure it is meant to survive
      for (const what of [
        "cross-shard begun",
        "same-shard transfer",
        "crash after the debit, before delivery",
        "credit lost on the wire",
        "ack lost on the wire",
        "delivered twice",
        "delivery lost",
        "credit delivered again: answered, not paid",
        "ack again: ignored",
        "credit refused",
        "returned to the sender",
        "receiver crashed after its batch, before the ack",
        "shard restarted",
        "same-shard refused: insufficient_funds",
        "cross-shard refused: insufficient_funds",
      ]) {
        expect(sim.seen[what] ?? 0, what).toBeGreaterThan(0);
      }
      expect(inTransit(sim.shards)).toBeGreaterThan(0);

      drain(sim, r);
      expect(sim.network).toEqual([]);
      expect(inTransit(sim.shards)).toBe(0);
      for (const s of sim.shards) {
        expect(s.accounts.get(TRANSIT)!.balance).toBe(0);
        // each pair of clearing accounts mirrors the other
        for (const peer of sim.shards)
          if (peer.id !== s.id)
            expect(
              (s.accounts.get(clearingAccount(peer.id))?.balance ?? 0) + (peer.accounts.get(clearingAccount(s.id))?.balance ?? 0),
            ).toBe(0);
      }
      // every transfer begun was credited once or came back once; every balance is what they say
      for (const [id, t] of sim.cross) {
        const state = sim.shards[t.fromShard]!.outbox.get(id)!.state;
        const credited = sim.shards[t.toShard]!.transactions.has(`xfer_in:${id}`);
        expect(state === "credited" ? credited : !credited && state === "returned", id).toBe(true);
      }
      expect(balances(sim)).toEqual(sim.expected);
      expect(checkShards(sim.shards)).toEqual([]);
    }, 120_000);
  }

  it("a credit delivered again is answered with its first outcome and pays nothing; a refused one returns the money once", () => {
    const [a, b] = [createShard(0, ["user:0:0"]), createShard(1, ["user:1:0", "user:1:1"])];
    post(a, {
      key: "deposit",
      kind: "deposit",
      entries: [
        { account: DEPOSITS, amount: -10 * USD },
        { account: "user:0:0", amount: 10 * USD },
      ],
    });
    expect(beginTransfer(a, { transferId: "x", from: "user:0:0", toShard: 1, toAccount: "user:1:0", amount: 2_500_001 })).toEqual({
      ok: true,
      replayed: false,
    });
    expect(beginTransfer(a, { transferId: "x", from: "user:0:0", toShard: 1, toAccount: "user:1:0", amount: 2_500_001 })).toEqual({
      ok: true,
      replayed: true,
    });
    expect(beginTransfer(a, { transferId: "x", from: "user:0:0", toShard: 1, toAccount: "user:1:1", amount: 2_500_001 })).toEqual({
      ok: false,
      reason: "idempotency_conflict",
    });
    expect(beginTransfer(a, { transferId: "big", from: "user:0:0", toShard: 1, toAccount: "user:1:0", amount: 8 * USD })).toEqual({
      ok: false,
      reason: "insufficient_funds",
    });
    const [m] = outboxMessages(a);
    const acks = [receiveCredit(b, m!), receiveCredit(b, m!), receiveCredit(b, m!)];
    expect(acks.map((x) => x.outcome)).toEqual(["credited", "credited", "credited"]);
    expect(b.accounts.get("user:1:0")!.balance).toBe(2_500_001);
    for (const ack of acks) receiveAck(a, ack);
    expect(a.accounts.get("user:0:0")!.balance).toBe(10 * USD - 2_500_001);
    expect(a.accounts.get(TRANSIT)!.balance).toBe(0);

    b.accounts.get("user:1:1")!.open = false;
    beginTransfer(a, { transferId: "y", from: "user:0:0", toShard: 1, toAccount: "user:1:1", amount: USD });
    const refusal = receiveCredit(b, outboxMessages(a)[0]!);
    b.accounts.get("user:1:1")!.open = true; // reopened: the transfer already has its answer
    expect(receiveCredit(b, outboxMessages(a)[0]!).outcome).toBe("refused");
    receiveAck(a, refusal);
    receiveAck(a, refusal);
    expect(a.accounts.get("user:0:0")!.balance).toBe(10 * USD - 2_500_001);
    expect(b.accounts.get("user:1:1")!.balance).toBe(0);
    expect(inTransit([a, b])).toBe(0);
    expect(checkShards([a, b])).toEqual([]);
  });

  it("the checks see money created, a transfer paid twice and a user account below zero", () => {
    const [a, b] = [createShard(0, ["user:0:0"]), createShard(1, ["user:1:0"])];
    post(a, {
      key: "deposit",
      kind: "deposit",
      entries: [
        { account: DEPOSITS, amount: -5 * USD },
        { account: "user:0:0", amount: 5 * USD },
      ],
    });
    beginTransfer(a, { transferId: "x", from: "user:0:0", toShard: 1, toAccount: "user:1:0", amount: USD });
    receiveCredit(b, outboxMessages(a)[0]!);
    expect(checkShards([a, b])).toEqual([]);
    // a second credit of the same transfer under another key (the bug the inbox prevents)
    post(b, {
      key: "xfer_in:x:again",
      kind: "transfer",
      entries: [
        { account: clearingAccount(0), amount: -USD },
        { account: "user:1:0", amount: USD },
      ],
      transfer: { id: "x", step: "in" },
    });
    expect(checkShards([a, b])).toEqual(
      expect.arrayContaining(["transfer x: in 2 times", "shards 0-1: clearing accounts off by -1000000"]),
    );
    b.accounts.get("user:1:0")!.balance = -1;
    expect(checkShards([b]).join("; ")).toContain("user:1:0 is below zero");
    expect(
      post(a, {
        key: "bad",
        kind: "transfer",
        entries: [
          { account: "user:0:0", amount: -1 },
          { account: FEES, amount: 2 },
        ],
      }),
    ).toEqual({ ok: false, reason: "invalid" });
    expect(
      post(a, {
        key: "float",
        kind: "transfer",
        entries: [
          { account: "user:0:0", amount: -0.5 },
          { account: FEES, amount: 0.5 },
        ],
      }),
    ).toEqual({ ok: false, reason: "invalid" });
  });
});
