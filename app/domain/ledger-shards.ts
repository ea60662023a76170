/**
 * The ledger past one database, on paper (docs/decisions/019-past-one-database.md): shards as
 * in-memory ledgers with the rules of the D1 ledger (exact integer micros, every transaction
 * balanced, a UNIQUE idempotency key per transaction, user accounts never below zero, each step
 * one atomic batch), and the two-step transfer that moves money from an account on one shard to
 * an account on another without ever creating or losing it. Pure: no I/O; the simulation and its
 * failures live in tests/unit/ledger-shards.test.ts.
 *
 * A transfer from shard S to shard T (a copy-trading profit share from a follower to a trader, a
 * transfer between two users):
 *   1. S, one batch: the debit `xfer_out:<id>` (sender's account → S's in-transit account) and the
 *      outbox row of the transfer (pending). Refused as a whole when the sender's balance is short.
 *   2. S's relay sends a credit message for every pending outbox row, again and again until it is
 *      acknowledged (at least once: messages may be lost, delayed, reordered or delivered twice).
 *   3. T, one batch: the inbox row of the transfer id (UNIQUE) and, if T accepts it, the credit
 *      `xfer_in:<id>` (T's clearing account for S → the receiver's account); if T refuses it (no
 *      such account, or closed) the inbox row says so and nothing moves. A message whose transfer
 *      id is in the inbox already changes nothing and is answered with the recorded outcome.
 *   4. S, one batch, on the acknowledgement of a pending row: credited → `xfer_done:<id>`
 *      (in-transit → S's clearing account for T); refused → `xfer_return:<id>` (in-transit → the
 *      sender, who has the money back). A row no longer pending ignores the acknowledgement.
 * The clearing accounts of a pair of shards mirror each other (S's for T + T's for S = 0 once every
 * acknowledgement has arrived): they are where operators reconcile the shards.
 */
import type { LedgerKind } from "./ledger";
import type { Micros } from "./money";

export type AccountRole = "user" | "platform" | "transit" | "clearing";

export interface ShardAccount {
  code: string;
  role: AccountRole;
  /** The available balance (micros). User accounts never go below zero; the others are the other side. */
  balance: Micros;
  /** A closed user account refuses credits from other shards (the transfer returns to its sender). */
  open: boolean;
  /** A clearing account's peer shard. */
  peer?: number;
}

export type TransferStep = "out" | "in" | "done" | "return";

export interface ShardEntry {
  account: string;
  amount: Micros;
}

export interface ShardTransaction {
  key: string;
  kind: LedgerKind;
  entries: ShardEntry[];
  /** The cross-shard transfer this transaction is a step of. */
  transfer?: { id: string; step: TransferStep };
}

export type OutboxState = "pending" | "credited" | "returned";

export interface OutboxItem {
  transferId: string;
  kind: LedgerKind;
  from: string;
  toShard: number;
  toAccount: string;
  amount: Micros;
  state: OutboxState;
}

export type CreditOutcome = "credited" | "refused";

export interface LedgerShard {
  id: number;
  accounts: Map<string, ShardAccount>;
  /** By idempotency key (UNIQUE). */
  transactions: Map<string, ShardTransaction>;
  /** Transfers leaving this shard, by transfer id. */
  outbox: Map<string, OutboxItem>;
  /** Transfers arriving at this shard that it has answered, by transfer id (UNIQUE): the credit's idempotency. */
  inbox: Map<string, { fromShard: number; outcome: CreditOutcome }>;
}

export interface CreditMessage {
  type: "credit";
  transferId: string;
  kind: LedgerKind;
  fromShard: number;
  toShard: number;
  toAccount: string;
  amount: Micros;
}

export interface AckMessage {
  type: "ack";
  transferId: string;
  /** The shard that answers (the receiver's). */
  fromShard: number;
  /** The shard the money left (the sender's). */
  toShard: number;
  outcome: CreditOutcome;
}

export type ShardMessage = CreditMessage | AckMessage;

export type PostOutcome =
  { ok: true; replayed: boolean } | { ok: false; reason: "invalid" | "unknown_account" | "insufficient_funds" | "idempotency_conflict" };

/** Each shard's account for money that has left it and is not yet acknowledged by the receiving shard. */
export const TRANSIT = "platform:in_transit";
/** Each shard's platform fees: platform accounts are split per shard; the operator's total is their sum. */
export const FEES = "platform:fees";
/** Where money enters the books (the deposits' other side), one per shard. */
export const DEPOSITS = "external:deposits";
/** A shard's clearing account for a peer shard: the mirror of the peer's clearing account for this one. */
export const clearingAccount = (peer: number) => `platform:shard:${peer}`;

export function createShard(id: number, userAccounts: readonly string[]): LedgerShard {
  const accounts = new Map<string, ShardAccount>();
  for (const code of [TRANSIT, FEES, DEPOSITS])
    accounts.set(code, { code, role: code === TRANSIT ? "transit" : "platform", balance: 0, open: true });
  for (const code of userAccounts) accounts.set(code, { code, role: "user", balance: 0, open: true });
  return { id, accounts, transactions: new Map(), outbox: new Map(), inbox: new Map() };
}

const sameEntries = (a: ShardEntry[], b: ShardEntry[]) =>
  a.length === b.length && a.every((e, i) => e.account === b[i]!.account && e.amount === b[i]!.amount);

/**
 * Posts one transaction on one shard, all or nothing (one D1 batch): a replay of its key with the
 * same entries changes nothing (replayed); with other entries it is refused. Entries are exact
 * integers, not zero, and sum to zero; every account exists; no user account ends below zero.
 */
export function post(shard: LedgerShard, tx: ShardTransaction): PostOutcome {
  const existing = shard.transactions.get(tx.key);
  if (existing)
    return sameEntries(existing.entries, tx.entries) ? { ok: true, replayed: true } : { ok: false, reason: "idempotency_conflict" };
  if (!tx.key || tx.entries.length < 2) return { ok: false, reason: "invalid" };
  let sum = 0;
  const after = new Map<string, Micros>();
  for (const e of tx.entries) {
    if (!Number.isSafeInteger(e.amount) || e.amount === 0) return { ok: false, reason: "invalid" };
    const account = shard.accounts.get(e.account);
    if (!account) return { ok: false, reason: "unknown_account" };
    sum += e.amount;
    const balance = (after.get(e.account) ?? account.balance) + e.amount;
    if (!Number.isSafeInteger(balance)) return { ok: false, reason: "invalid" };
    after.set(e.account, balance);
  }
  if (sum !== 0) return { ok: false, reason: "invalid" };
  for (const [code, balance] of after)
    if (balance < 0 && shard.accounts.get(code)!.role === "user") return { ok: false, reason: "insufficient_funds" };
  for (const [code, balance] of after) shard.accounts.get(code)!.balance = balance;
  shard.transactions.set(tx.key, { ...tx, entries: tx.entries.map((e) => ({ ...e })) });
  return { ok: true, replayed: false };
}

/** A movement between two accounts of the same shard: one transaction, as on one database. */
export function transferWithin(
  shard: LedgerShard,
  transferId: string,
  from: string,
  to: string,
  amount: Micros,
  kind: LedgerKind = "transfer",
): PostOutcome {
  return post(shard, {
    key: `transfer:${transferId}`,
    kind,
    entries: [
      { account: from, amount: -amount },
      { account: to, amount },
    ],
  });
}

export interface CrossTransfer {
  transferId: string;
  kind?: LedgerKind;
  from: string;
  toShard: number;
  toAccount: string;
  amount: Micros;
}

/** Step 1 (the sender's shard, one batch): the debit into in-transit and the outbox row, or nothing. */
export function beginTransfer(shard: LedgerShard, t: CrossTransfer): PostOutcome {
  const kind = t.kind ?? "transfer";
  if (t.toShard === shard.id || !(t.amount > 0)) return { ok: false, reason: "invalid" };
  const known = shard.outbox.get(t.transferId);
  if (known) {
    const same =
      known.from === t.from &&
      known.toShard === t.toShard &&
      known.toAccount === t.toAccount &&
      known.amount === t.amount &&
      known.kind === kind;
    return same ? { ok: true, replayed: true } : { ok: false, reason: "idempotency_conflict" };
  }
  const debit = post(shard, {
    key: `xfer_out:${t.transferId}`,
    kind,
    entries: [
      { account: t.from, amount: -t.amount },
      { account: TRANSIT, amount: t.amount },
    ],
    transfer: { id: t.transferId, step: "out" },
  });
  if (!debit.ok) return debit;
  shard.outbox.set(t.transferId, {
    transferId: t.transferId,
    kind,
    from: t.from,
    toShard: t.toShard,
    toAccount: t.toAccount,
    amount: t.amount,
    state: "pending",
  });
  return debit;
}

/** Step 2 (the sender's relay): a credit message for every transfer not yet acknowledged; sent again on every pass. */
export function outboxMessages(shard: LedgerShard): CreditMessage[] {
  const out: CreditMessage[] = [];
  for (const item of shard.outbox.values()) {
    if (item.state !== "pending") continue;
    out.push({
      type: "credit",
      transferId: item.transferId,
      kind: item.kind,
      fromShard: shard.id,
      toShard: item.toShard,
      toAccount: item.toAccount,
      amount: item.amount,
    });
  }
  return out;
}

function ensureClearing(shard: LedgerShard, peer: number): string {
  const code = clearingAccount(peer);
  if (!shard.accounts.has(code)) shard.accounts.set(code, { code, role: "clearing", balance: 0, open: true, peer });
  return code;
}

/**
 * Step 3 (the receiver's shard, one batch): the inbox row and the credit, or the inbox row of a
 * refusal. A transfer id already in the inbox changes nothing: its recorded outcome is answered
 * again (the acknowledgement may have been lost).
 */
export function receiveCredit(shard: LedgerShard, m: CreditMessage): AckMessage {
  if (m.toShard !== shard.id) throw new Error(`credit for shard ${m.toShard} delivered to ${shard.id}`);
  const ack = (outcome: CreditOutcome): AckMessage => ({
    type: "ack",
    transferId: m.transferId,
    fromShard: shard.id,
    toShard: m.fromShard,
    outcome,
  });
  const answered = shard.inbox.get(m.transferId);
  if (answered) return ack(answered.outcome);
  const account = shard.accounts.get(m.toAccount);
  let outcome: CreditOutcome = "refused";
  if (account && account.role === "user" && account.open) {
    const clearing = ensureClearing(shard, m.fromShard);
    const credit = post(shard, {
      key: `xfer_in:${m.transferId}`,
      kind: m.kind,
      entries: [
        { account: clearing, amount: -m.amount },
        { account: m.toAccount, amount: m.amount },
      ],
      transfer: { id: m.transferId, step: "in" },
    });
    if (credit.ok) outcome = "credited";
  }
  shard.inbox.set(m.transferId, { fromShard: m.fromShard, outcome });
  return ack(outcome);
}

/**
 * Step 4 (the sender's shard, one batch): a pending transfer leaves in-transit, for the clearing
 * account of the receiving shard (credited) or back to its sender (refused). Any later
 * acknowledgement of the same transfer changes nothing.
 */
export function receiveAck(shard: LedgerShard, m: AckMessage): void {
  if (m.toShard !== shard.id) throw new Error(`acknowledgement for shard ${m.toShard} delivered to ${shard.id}`);
  const item = shard.outbox.get(m.transferId);
  if (!item || item.state !== "pending") return;
  const done =
    m.outcome === "credited"
      ? post(shard, {
          key: `xfer_done:${item.transferId}`,
          kind: item.kind,
          entries: [
            { account: TRANSIT, amount: -item.amount },
            { account: ensureClearing(shard, item.toShard), amount: item.amount },
          ],
          transfer: { id: item.transferId, step: "done" },
        })
      : post(shard, {
          key: `xfer_return:${item.transferId}`,
          kind: item.kind,
          entries: [
            { account: TRANSIT, amount: -item.amount },
            { account: item.from, amount: item.amount },
          ],
          transfer: { id: item.transferId, step: "return" },
        });
  if (!done.ok) throw new Error(`acknowledgement of ${item.transferId} could not post: ${done.reason}`);
  item.state = m.outcome === "credited" ? "credited" : "returned";
}

/** Money that has left its shard and is not yet acknowledged, summed over the shards (0 once drained). */
export function inTransit(shards: readonly LedgerShard[]): Micros {
  let total = 0;
  for (const s of shards) for (const item of s.outbox.values()) if (item.state === "pending") total += item.amount;
  return total;
}

/**
 * Every invariant of the sharded ledger, as a list of what is broken (empty when all hold):
 *   - every transaction's entries sum to zero, and every balance equals the sum of its entries;
 *   - no user account below zero;
 *   - the sum over all shards of all accounts, in-transit and clearing included, is zero;
 *   - each shard's in-transit balance equals its pending outbox rows;
 *   - each transfer id is debited at most once, credited at most once, settled (done or returned)
 *     at most once, never both credited and returned, and credited only if it was debited for the
 *     same amount;
 *   - the clearing accounts of each pair of shards mirror each other, counting the transfers
 *     credited at the receiver and not yet acknowledged at the sender.
 */
export function checkShards(shards: readonly LedgerShard[]): string[] {
  const problems: string[] = [];
  const byId = new Map(shards.map((s) => [s.id, s]));
  let global = 0;
  /** Per transfer id: how many times each step was posted, and the amount of its debit and of its credit. */
  const seen = new Map<string, number>();
  const debits = new Map<string, Micros>();
  const credits = new Map<string, Micros>();
  for (const s of shards) {
    const fromEntries = new Map<string, Micros>();
    for (const tx of s.transactions.values()) {
      let sum = 0;
      for (const e of tx.entries) {
        sum += e.amount;
        fromEntries.set(e.account, (fromEntries.get(e.account) ?? 0) + e.amount);
      }
      if (sum !== 0) problems.push(`shard ${s.id}: transaction ${tx.key} sums to ${sum}`);
      if (tx.transfer) {
        const key = `${tx.transfer.step} ${tx.transfer.id}`;
        const times = (seen.get(key) ?? 0) + 1;
        seen.set(key, times);
        if (times > 1) problems.push(`transfer ${tx.transfer.id}: ${tx.transfer.step} ${times} times`);
        if (tx.transfer.step === "out") debits.set(tx.transfer.id, -tx.entries[0]!.amount);
        if (tx.transfer.step === "in") credits.set(tx.transfer.id, tx.entries[1]!.amount);
      }
    }
    let transit = 0;
    for (const item of s.outbox.values()) if (item.state === "pending") transit += item.amount;
    for (const a of s.accounts.values()) {
      global += a.balance;
      if (a.balance !== (fromEntries.get(a.code) ?? 0))
        problems.push(`shard ${s.id}: ${a.code} holds ${a.balance}, its entries ${fromEntries.get(a.code) ?? 0}`);
      if (a.role === "user" && a.balance < 0) problems.push(`shard ${s.id}: ${a.code} is below zero (${a.balance})`);
      if (a.role === "transit" && a.balance !== transit) problems.push(`shard ${s.id}: in transit ${a.balance}, pending outbox ${transit}`);
    }
  }
  if (global !== 0) problems.push(`the shards sum to ${global}, not zero`);
  for (const [id, amount] of credits) {
    if (debits.get(id) !== amount) problems.push(`transfer ${id}: credited without its debit`);
    if (seen.has(`return ${id}`)) problems.push(`transfer ${id}: credited and returned`);
  }
  for (const key of seen.keys()) {
    const step = key.slice(0, key.indexOf(" "));
    const id = key.slice(key.indexOf(" ") + 1);
    if ((step === "done" || step === "return") && !debits.has(id)) problems.push(`transfer ${id}: settled without its debit`);
  }
  // clearing: S's account for T + T's account for S + (credited at T, still pending at S) + (likewise T → S) = 0
  const pairs = new Map<string, Micros>();
  const pairKey = (a: number, b: number) => (a < b ? `${a}-${b}` : `${b}-${a}`);
  for (const s of shards) {
    for (const a of s.accounts.values()) {
      if (a.role !== "clearing" || a.peer === undefined) continue;
      const peer = a.peer;
      pairs.set(pairKey(s.id, peer), (pairs.get(pairKey(s.id, peer)) ?? 0) + a.balance);
    }
    for (const item of s.outbox.values()) {
      if (item.state !== "pending" || byId.get(item.toShard)?.inbox.get(item.transferId)?.outcome !== "credited") continue;
      pairs.set(pairKey(s.id, item.toShard), (pairs.get(pairKey(s.id, item.toShard)) ?? 0) + item.amount);
    }
  }
  for (const [pair, sum] of pairs) if (sum !== 0) problems.push(`shards ${pair}: clearing accounts off by ${sum}`);
  return problems;
}
