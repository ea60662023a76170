/**
 * The engine hook of the market room. On each tick the clock calls `onTick` with the price
 * ranges crossed since the previous tick; the engine settles what they trigger (one set-based D1
 * batch per tick) and answers the per-user events to push once that batch has committed. Between
 * ticks, services report committed trigger changes (`apply`), and the clock asks `hasWork` to
 * decide whether the room may sleep.
 *
 * The engine of this release acts on nothing: it keeps the register of live triggers (in the
 * room's storage, so a restart knows that work waits) and the last ticks it saw (local runs and
 * tests read them). The contract-trading release replaces `onTick` with the settlement step.
 */
import { triggerKey, type TickInput, type TickOutput, type TriggerChange } from "~/domain/engine";

export interface Engine {
  /** Loads what the engine needs at room start. */
  load(): Promise<void>;
  onTick(tick: TickInput): Promise<TickOutput>;
  /** Whether any order or option waits for a price or an instant (the room must keep ticking). */
  hasWork(): boolean;
  /** Committed changes reported by services after their transaction (RPC through the room). */
  apply(changes: TriggerChange[]): void;
}

const RECENT_TICKS = 120;

export class IdleEngine implements Engine {
  private triggers = new Map<string, TriggerChange>();
  /** The last ticks handed to the engine, newest last. */
  readonly recent: TickInput[] = [];

  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS triggers (key TEXT PRIMARY KEY, kind TEXT NOT NULL, id INTEGER NOT NULL, code TEXT NOT NULL, level REAL NOT NULL)");
  }

  async load() {
    this.triggers.clear();
    for (const row of this.sql.exec<{ key: string; kind: TriggerChange["kind"]; id: number; code: string; level: number }>("SELECT key, kind, id, code, level FROM triggers").toArray()) {
      this.triggers.set(row.key, { kind: row.kind, id: row.id, code: row.code, level: row.level });
    }
  }

  async onTick(tick: TickInput): Promise<TickOutput> {
    this.recent.push(tick);
    if (this.recent.length > RECENT_TICKS) this.recent.splice(0, this.recent.length - RECENT_TICKS);
    return { userEvents: [] };
  }

  hasWork() {
    return this.triggers.size > 0;
  }

  apply(changes: TriggerChange[]) {
    for (const change of changes) {
      const key = triggerKey(change);
      if (change.level === null || change.level === 0) {
        this.triggers.delete(key);
        this.sql.exec("DELETE FROM triggers WHERE key = ?", key);
      } else {
        this.triggers.set(key, change);
        this.sql.exec(
          "INSERT INTO triggers (key, kind, id, code, level) VALUES (?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET code = excluded.code, level = excluded.level",
          key, change.kind, change.id, change.code, change.level,
        );
      }
    }
  }

  pending() {
    return this.triggers.size;
  }
}
