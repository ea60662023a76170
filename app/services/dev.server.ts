/**
 * Local-only endpoints (the Worker routes them only when ENVIRONMENT=local):
 *   GET  /dev/outbox with Accept: application/json — the embedded provider's e-mails and SMS
 *        (the page at /dev/outbox shows the same list);
 *   POST /dev/market/price {"code": "<ShowCode or Code>", "price": <number> | null} — holds an
 *        instrument at a price (ticks keep flowing at it) until another call sets a new one or
 *        releases it with null.
 *   GET  /dev/engine — the order engine's state: open orders and triggers indexed, the clock, and
 *        the duration of its last settlement batches;
 *   GET  /dev/market/ping — the market room's no-op call (its latency shows how long the room's
 *        JavaScript held the thread);
 *   POST /dev/engine/tick — one tick now, as the alarm runs it; answers how long it took in ms;
 *   POST /dev/engine/reconcile — re-reads open orders from D1 now (as the periodic reconcile does);
 *   POST /dev/credit {"email": "<user's e-mail>", "amount": "<USD, e.g. 500, 12.50 or 0.175>"} — credits the
 *        user's funding account through the ledger (an "adjustment" from external:deposits), so
 *        tests can give a real user money without the deposit review;
 *   POST /dev/bench/batch?user=&account=&session=&demo=&instrument=&lots=&leverage=&price= — the
 *        benchmark's bare write: a market order's own batch (openOrderWrite, as placeOrder builds
 *        it), posted with nothing around it;
 *   GET  /dev/jobs — the last job chunks the queue consumer ran, with their durations;
 *   POST /dev/fund/income?day=YYYY-MM-DD — runs the daily fund-income job as if on that UTC date
 *        (the e2e test pays "tomorrow's" income; the benchmark times the batch).
 */
import * as v from "valibot";
import type { AppContext } from "~/context.server";
import { canonicalEmail } from "~/domain/identity";
import { Side, orderFigures } from "~/domain/contract";
import type { Instrument } from "~/domain/instrument";
import { parseAmount, toBalanceString } from "~/domain/money";
import { MARKET_ROOM } from "~/domain/rooms";
import { isDay } from "~/domain/fund";
import { payFundIncome } from "~/services/fund/income.server";
import { AccountKind, PlatformAccount } from "~/services/ledger/accounts.server";
import { post } from "~/services/ledger/post.server";
import { findInstrument, listInstruments, setScriptedPrice } from "~/services/market.server";
import { openOrderWrite } from "~/services/contract/engine.server";
import { feeMode, termsOf } from "~/services/contract/queries.server";
import { recentJobChunks } from "~/services/jobs.server";
import { outboxMessages } from "~/services/notify.server";

const PriceBody = v.object({
  code: v.pipe(v.string(), v.nonEmpty(), v.maxLength(32)),
  price: v.nullable(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1e12))),
});

export async function handleDevRequest(request: Request, ctx: AppContext): Promise<Response | null> {
  if (!ctx.config.isLocal) return null;
  const path = new URL(request.url).pathname;
  if (path === "/dev/outbox" && (request.headers.get("accept") ?? "").includes("application/json")) {
    return Response.json({ messages: await outboxMessages(ctx.d1) });
  }
  if (path === "/dev/market/price") return scriptedPrice(request, ctx);
  if (path === "/dev/engine" && request.method === "GET") {
    const view = await marketRoom(ctx).engineView();
    return Response.json({
      pending: view.pending,
      triggers: view.triggers,
      lastTick: view.lastTick,
      running: view.running,
      shards: view.shards,
      timings: view.timings,
      parked: view.parked,
    });
  }
  if (path === "/dev/market/ping" && request.method === "GET") return Response.json({ at: await marketRoom(ctx).ping() });
  if (path === "/dev/engine/tick" && request.method === "POST") {
    const started = performance.now();
    const time = await marketRoom(ctx).tickNow();
    return Response.json({ time, ms: performance.now() - started });
  }
  if (path === "/dev/engine/reconcile" && request.method === "POST")
    return Response.json({ pending: await marketRoom(ctx).reconcileNow() });
  if (path === "/dev/bench/batch" && request.method === "POST") return bareBatch(request, ctx);
  if (path === "/dev/jobs" && request.method === "GET") return Response.json({ chunks: recentJobChunks() });
  if (path === "/dev/credit") return credit(request, ctx);
  if (path === "/dev/fund/income" && request.method === "POST") return fundIncome(request, ctx);
  return null;
}

const CreditBody = v.object({
  email: v.pipe(v.string(), v.nonEmpty(), v.maxLength(254)),
  amount: v.pipe(v.string(), v.nonEmpty(), v.maxLength(32)),
});

/** Credits a user's funding account (local runs only): one ledger "adjustment" from external:deposits. */
async function credit(request: Request, ctx: AppContext): Promise<Response> {
  if (request.method !== "POST") return Response.json({ error: "POST a JSON body {email, amount}" }, { status: 405 });
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ error: "body must be JSON {email, amount}" }, { status: 400 });
  }
  const parsed = v.safeParse(CreditBody, body);
  const amount = parsed.success ? parseAmount(parsed.output.amount, 6) : null;
  const email = parsed.success ? canonicalEmail(parsed.output.email) : null;
  if (!email || amount === null || amount <= 0)
    return Response.json({ error: "expected {email: string, amount: positive decimal string with at most 6 decimals}" }, { status: 400 });
  const account = await ctx.d1
    .prepare("SELECT a.id FROM accounts a JOIN users u ON u.id = a.user_id WHERE u.email = ?1 AND a.kind = ?2")
    .bind(email, AccountKind.Funding.kind)
    .first<{ id: number }>();
  if (!account) return Response.json({ error: "unknown user" }, { status: 404 });
  const posted = await post(ctx.d1, {
    idempotencyKey: `dev_credit:${crypto.randomUUID()}`,
    kind: "adjustment",
    memo: "wallet.memo_adjustment",
    postings: [
      { accountId: account.id, amount },
      { accountId: PlatformAccount.ExternalDeposits.id, amount: -amount },
    ],
  });
  const balance = await ctx.d1.prepare("SELECT balance FROM accounts WHERE id = ?1").bind(account.id).first<{ balance: number }>();
  return Response.json({ ok: true, transactionId: posted.transactionId, balance: toBalanceString(balance?.balance ?? 0) });
}

async function scriptedPrice(request: Request, ctx: AppContext): Promise<Response> {
  if (request.method !== "POST") return Response.json({ error: "POST a JSON body {code, price}" }, { status: 405 });
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ error: "body must be JSON {code, price}" }, { status: 400 });
  }
  const parsed = v.safeParse(PriceBody, body);
  if (!parsed.success || parsed.output.price === 0)
    return Response.json({ error: "expected {code: string, price: positive number | null}" }, { status: 400 });
  const wanted = parsed.output.code.toUpperCase();
  const instrument = (await listInstruments(ctx)).find((i) => i.showCode.toUpperCase() === wanted || i.code.toUpperCase() === wanted);
  if (!instrument) return Response.json({ error: "unknown instrument" }, { status: 404 });
  const ok = await setScriptedPrice(ctx, instrument.code, parsed.output.price);
  return Response.json(
    { ok, code: instrument.code, showCode: instrument.showCode, price: parsed.output.price },
    { status: ok ? 200 : 400 },
  );
}

function marketRoom(ctx: AppContext) {
  return ctx.env.MARKET_ROOM.get(ctx.env.MARKET_ROOM.idFromName(MARKET_ROOM));
}

/**
 * The benchmark's bare write (bench/orders.mjs): the order's own batch, built by the function
 * placeOrder builds it with (openOrderWrite) and posted the same way, for a market order of
 * `lots` (Scaled6) on `instrument` at `price` (steps) and `leverage`, by `user` (contract account
 * `account`, session `session`). Nothing else: no session lookup, no price read, no checks, no
 * answer built, so the order path's cost over it is everything around the write.
 */
const bareFigures = new Map<string, { instrument: Instrument; contractSize: number; figures: ReturnType<typeof orderFigures> }>();

async function bareBatch(request: Request, ctx: AppContext): Promise<Response> {
  const q = new URL(request.url).searchParams;
  const [user, account, instrumentId, lots, leverage, price] = ["user", "account", "instrument", "lots", "leverage", "price"].map((k) =>
    Number(q.get(k)),
  );
  if (![user, account, instrumentId, lots, leverage, price].every((n) => Number.isSafeInteger(n) && n > 0)) {
    return Response.json({ error: "user, account, instrument, lots, leverage, price" }, { status: 400 });
  }
  const memo = `${instrumentId}:${lots}:${leverage}:${price}`;
  let known = bareFigures.get(memo);
  if (!known) {
    const instrument = await findInstrument(ctx, instrumentId);
    const terms = instrument ? termsOf(instrument, await feeMode(ctx)) : null;
    if (!instrument || !terms) return Response.json({ error: "instrument" }, { status: 404 });
    known = { instrument, contractSize: terms.contractSize, figures: orderFigures(terms, Side.Buy, lots, price, leverage) };
    bareFigures.set(memo, known);
  }
  const now = Date.now();
  const session = q.get("session") ?? "";
  await post(
    ctx.d1,
    openOrderWrite(ctx.d1, {
      userId: user,
      accountId: account,
      isDemo: q.get("demo") === "1",
      instrument: known.instrument,
      contractSize: known.contractSize,
      side: Side.Buy,
      lots,
      pending: false,
      target: 0,
      market: price,
      leverage,
      figures: known.figures,
      stopLoss: 0,
      takeProfit: 0,
      key: `contract_open:${user}:${crypto.randomUUID()}`,
      now,
      sessionId: session || undefined,
    }),
  );
  return Response.json({ ok: true });
}

/** The daily fund-income job on a chosen UTC date (local runs only), with its duration. */
async function fundIncome(request: Request, ctx: AppContext): Promise<Response> {
  const day = new URL(request.url).searchParams.get("day") ?? "";
  if (!isDay(day)) return Response.json({ error: "day=YYYY-MM-DD required" }, { status: 400 });
  const started = Date.now();
  const report = await payFundIncome(ctx, Date.parse(`${day}T03:00:00Z`), day);
  return Response.json({ ...report, ms: Date.now() - started });
}
