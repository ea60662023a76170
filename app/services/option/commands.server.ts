/**
 * Buying a timed option (issue 9): the stake moves to the options account's locked balance in one
 * ledger transaction, with the option row. Takes the typed command (app/domain/option.ts
 * BuyCommand, from the form of app/forms/option.ts) and answers an Outcome whose refusals name the
 * command's fields.
 */
import type { AppContext, ServiceContext } from "~/context.server";
import { checkStake, type BuyCommand } from "~/domain/option";
import { priceToSteps } from "~/domain/market";
import { AccountKind, Bucket } from "~/services/ledger/accounts.server";
import { LedgerError, post, txOfKey } from "~/services/ledger/post.server";
import { findInstrument, listInstruments, quoteOf } from "~/services/market.server";
import { fail, refuse, type Outcome } from "~/services/outcome";
import { OPTION_COLUMNS } from "./columns";
import { MAX_STAKE, optionTerms } from "./queries.server";
import type { OptionRow } from "./views";
import { upstreamBuy } from "~/services/upstream/option.server";
import { basicInfo } from "~/services/account.server";

/** Refusals that depend on the moment, not on the command. */
const CONFLICT = 409;

async function optionsAccountId(ctx: ServiceContext, userId: number): Promise<number | null> {
  const row = await ctx.d1
    .prepare("SELECT id FROM accounts WHERE user_id = ?1 AND kind = ?2")
    .bind(userId, AccountKind.Options.kind)
    .first<{ id: number }>();
  return row?.id ?? null;
}

/** Buys an option: the stake moves to the locked balance of the options account, with the option row, in one transaction. */
export async function buyOption(ctx: ServiceContext, userId: number, command: BuyCommand): Promise<Outcome<OptionRow>> {
  const instrument = await findInstrument(ctx, command.instrumentId);
  if (!instrument) return fail({ instrumentId: "errors.instrument_not_found" });
  const quoted = quoteOf(ctx, instrument.code);
  quoted.catch(() => {});
  const { direction } = command;
  const { durations, lossLevel: level } = await optionTerms(ctx);
  const duration = durations.find((d) => d.seconds === command.seconds);
  if (!duration) return fail({ seconds: "errors.unknown_duration" });
  const stake = checkStake(command.amount, duration.minAmount, MAX_STAKE);
  if (!stake.ok) return fail({ amount: stake.message });
  const { amount } = stake;
  const { quote, stale, feed } = await quoted;
  if (!quote || quote.MarketStatus !== 1) return refuse("errors.market_closed", CONFLICT);
  if (stale) return refuse("errors.prices_stale", CONFLICT);
  const accountId = await optionsAccountId(ctx, userId);
  if (accountId === null) return refuse("errors.try_again", CONFLICT);
  const key = `option_open:${userId}:${command.requestKey || crypto.randomUUID()}`;
  const now = Date.now();
  const openTickAt = quote.time || now;
  const insert = ctx.d1
    .prepare(
      `INSERT INTO options (user_id, account_id, instrument_id, code, direction, amount, profit_ratio, seconds, loss_level, precision,
         open_price, open_tick_at, open_feed, expires_at, open_tx, updated_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ${txOfKey("?15")}, ?16)
       RETURNING ${OPTION_COLUMNS}`,
    )
    .bind(
      userId,
      accountId,
      instrument.id,
      instrument.code,
      direction,
      amount,
      duration.profitRatio,
      duration.seconds,
      level,
      instrument.pricePrecision,
      priceToSteps(quote.Close, instrument.pricePrecision),
      openTickAt,
      feed,
      openTickAt + duration.seconds * 1000,
      key,
      now,
    );
  let row: OptionRow | null = null;
  try {
    const posted = await post(ctx.d1, {
      idempotencyKey: key,
      kind: "option_stake",
      memo: "memo.option_stake",
      userId,
      postings: [
        { accountId, bucket: Bucket.Available, amount: -amount },
        { accountId, bucket: Bucket.Locked, amount },
      ],
      effects: [insert],
    });
    row = (posted.results?.[0]?.results?.[0] as OptionRow | undefined) ?? null;
  } catch (error) {
    if (error instanceof LedgerError && error.code === "insufficient_funds") return fail({ amount: "errors.insufficient_stake" }, CONFLICT);
    if (!(error instanceof LedgerError && error.code === "idempotency_conflict")) throw error;
  }
  row ??= await ctx.d1
    .prepare(`SELECT ${OPTION_COLUMNS} FROM options WHERE open_tx = ${txOfKey("?1")}`)
    .bind(key)
    .first<OptionRow>();
  if (!row) return refuse("errors.try_again", CONFLICT);
  // The market room reads new options at the start of each tick (the price read above keeps it running).
  return { ok: true, value: row };
}

/** The signed-in user's option purchase on whichever platform holds the money (ADR 024). */
export async function buyMyOption(ctx: AppContext, userId: number, command: BuyCommand): Promise<Outcome<OptionRow>> {
  if (ctx.config.platform.kind !== "upstream") return buyOption(ctx, userId, command);
  const [list, info] = await Promise.all([listInstruments(ctx), basicInfo(ctx)]);
  return upstreamBuy(ctx, userId, command, list, info.micro_loss_level);
}
