/**
 * The engine's trigger index: per instrument, two sorted lists of (level, key) — triggers that
 * fire when the price falls to or below their level ("down") and those that fire when it rises to
 * or above it ("up"). A tick with the range [low, high] fires the suffix of "down" at or above
 * `low` and the prefix of "up" at or below `high`: a binary search plus the triggered entries, so
 * its cost grows with the orders triggered, not with the orders open.
 */
import type { Crossing } from "~/domain/contract";

export class SortedLevels {
  private levels: number[] = [];
  private keys: number[] = [];

  get size() {
    return this.levels.length;
  }

  /** First index whose level is >= level. */
  private lowerBound(level: number) {
    let lo = 0;
    let hi = this.levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.levels[mid]! < level) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index whose level is > level. */
  private upperBound(level: number) {
    let lo = 0;
    let hi = this.levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.levels[mid]! <= level) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Replaces the contents with these entries (sorted once: loading 100,000 orders is not 100,000 inserts). */
  assign(entries: [level: number, key: number][]) {
    entries.sort((a, b) => a[0] - b[0]);
    this.levels = entries.map((e) => e[0]);
    this.keys = entries.map((e) => e[1]);
  }

  insert(level: number, key: number) {
    const at = this.upperBound(level);
    this.levels.splice(at, 0, level);
    this.keys.splice(at, 0, key);
  }

  remove(level: number, key: number): boolean {
    for (let i = this.lowerBound(level); i < this.levels.length && this.levels[i] === level; i++) {
      if (this.keys[i] === key) {
        this.levels.splice(i, 1);
        this.keys.splice(i, 1);
        return true;
      }
    }
    return false;
  }

  /** Keys with level >= x (fired by a fall to x). */
  atOrAbove(x: number): number[] {
    return this.keys.slice(this.lowerBound(x));
  }

  /** Keys with level <= x (fired by a rise to x). */
  atOrBelow(x: number): number[] {
    return this.keys.slice(0, this.upperBound(x));
  }
}

export const TRIGGER_KINDS = ["pending", "stop_loss", "take_profit", "liquidation"] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

/** A trigger's key packs the order id and the kind into one number. */
export function triggerKey(id: number, kind: TriggerKind) {
  return id * 4 + TRIGGER_KINDS.indexOf(kind);
}

export function unpackKey(key: number): { id: number; kind: TriggerKind } {
  return { id: Math.floor(key / 4), kind: TRIGGER_KINDS[key % 4]! };
}

export class TriggerIndex {
  private books = new Map<string, { down: SortedLevels; up: SortedLevels }>();

  private book(code: string) {
    let b = this.books.get(code);
    if (!b) this.books.set(code, (b = { down: new SortedLevels(), up: new SortedLevels() }));
    return b;
  }

  add(code: string, crossing: Crossing, level: number, key: number) {
    this.book(code)[crossing].insert(level, key);
  }

  remove(code: string, crossing: Crossing, level: number, key: number) {
    const b = this.books.get(code);
    if (b) b[crossing].remove(level, key);
  }

  /** Builds the whole index at once. */
  static build(entries: { code: string; crossing: Crossing; level: number; key: number }[]): TriggerIndex {
    const index = new TriggerIndex();
    const groups = new Map<string, [number, number][]>();
    for (const e of entries) {
      const k = `${e.crossing}|${e.code}`;
      let list = groups.get(k);
      if (!list) groups.set(k, (list = []));
      list.push([e.level, e.key]);
    }
    for (const [k, list] of groups) {
      const [crossing, code] = k.split("|") as [Crossing, string];
      index.book(code)[crossing].assign(list);
    }
    return index;
  }

  /** Every trigger of `code` the range [low, high] reaches (steps). */
  fired(code: string, low: number, high: number): number[] {
    const b = this.books.get(code);
    if (!b) return [];
    return [...b.down.atOrAbove(low), ...b.up.atOrBelow(high)];
  }

  size() {
    let n = 0;
    for (const b of this.books.values()) n += b.down.size + b.up.size;
    return n;
  }
}
