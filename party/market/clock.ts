/**
 * The clock of the market room: the only writer of prices. Each tick (a 1 s alarm) advances the
 * price book, sends the market tick to the live shards and, meanwhile, hands the engine the
 * ranges crossed since the previous tick, then publishes the engine's per-user events. Prices do
 * not wait for the engine's D1 work (a crossed stop is settled while the tick is on its way, and
 * its close follows as a user event). Ticks never overlap (they run one after another), so
 * nothing the engine should see can happen between two ticks.
 *
 * Idle rule: the clock keeps ticking while a shard listens, while the engine has work (an open
 * order or option), or for a minute after a page read; otherwise it stops. A read while it is
 * stopped ticks once (through the clock) before answering, so readers always see current prices.
 */
import type { TickOutput } from "~/domain/engine";
import type { TickPayload } from "~/domain/protocol";
import type { PriceBook } from "./book";
import type { Engine } from "./engine";
import type { Publisher } from "./publisher";

export const TICK_MS = 1000;
/** With no listener and no work, the clock stops this long after the last read. */
export const IDLE_STOP_MS = 60_000;

export interface ClockParts {
  storage: DurableObjectStorage;
  book: PriceBook;
  engine: Engine;
  publisher: Publisher;
  stale: () => boolean;
}

export class Clock {
  lastTick = 0;
  lastRead = 0;
  ticks = 0;
  /** Users watching their live profit, as the shards answered the previous tick. */
  private watchers: number[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(private readonly parts: ClockParts) {}

  /** Runs one tick at `now` after any tick in flight. */
  tick(now = Date.now()): Promise<void> {
    const run = this.queue.then(() => this.step(now));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Tests only: no alarm is armed from now on; resolves when the tick in flight (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.parts.storage.deleteAlarm();
    await this.queue;
  }

  private async step(now: number) {
    const { book, engine, publisher } = this.parts;
    if (now <= this.lastTick) return;
    const since = this.lastTick || book.clock;
    const ranges = book.advance(now);
    // the fan-out starts before the engine's work and runs beside it (it never rejects); the
    // engine computes live profit for the users who watched it on the previous tick
    const published = publisher.publishTick(this.payload(now), now);
    let output: TickOutput = { userEvents: [] };
    try {
      output = await engine.onTick({ time: now, since, catchUp: now - since > 2 * TICK_MS, ranges, watchers: this.watchers });
    } catch (error) {
      // The engine's writes are idempotent and driven by D1: the next tick retries what failed.
      console.error("engine tick failed", error);
    }
    this.lastTick = now;
    this.ticks += 1;
    await publisher.publishUserEvents(output.userEvents);
    this.watchers = await published;
  }

  payload(now: number): TickPayload {
    const { book, stale } = this.parts;
    return { time: now, stale: stale(), quotes: book.quotes(now), candles: book.lastCandles() };
  }

  shouldRun(now = Date.now()) {
    return this.parts.publisher.listeners(now).length > 0 || this.parts.engine.hasWork() || now - this.lastRead < IDLE_STOP_MS;
  }

  /** The alarm handler: tick, then arm the next second or stop. */
  async onAlarm(now = Date.now()) {
    await this.tick(now);
    if (this.stopped) return;
    if (this.shouldRun(now)) await this.parts.storage.setAlarm(Math.ceil((now + 1) / TICK_MS) * TICK_MS);
    else this.parts.book.persistState(now);
  }

  /**
   * Arms the alarm if it is not armed (after a read, a registration, new work, a restart). While
   * the platform delivers an alarm the storage reports none; arming then is harmless, as the
   * handler's own arming replaces it.
   */
  async ensureRunning(now = Date.now()) {
    if (this.stopped) return;
    if ((await this.parts.storage.getAlarm()) === null) await this.parts.storage.setAlarm(now + TICK_MS);
  }

  /**
   * Work that should not wait for the next second (a trader's copies to close): the alarm fires
   * now, as the room's own work rather than inside the caller's request; the tick it runs arms
   * the next second as usual.
   */
  async soon(now = Date.now()) {
    if (this.stopped) return;
    await this.parts.storage.setAlarm(now);
  }

  /** Before answering a read: a stopped clock ticks once now, and keeps running a while. */
  async beforeRead(now = Date.now()) {
    this.lastRead = now;
    if (now - this.lastTick > TICK_MS + 500) await this.tick(now);
    await this.ensureRunning(now);
  }
}
