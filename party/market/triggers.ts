/**
 * The engine's trigger index: per instrument, two sorted sets of (level, key) — triggers that
 * fire when the price falls to or below their level ("down") and those that fire when it rises to
 * or above it ("up"). A tick with the range [low, high] fires the suffix of "down" at or above
 * `low` and the prefix of "up" at or below `high`: a binary search plus the triggered entries, so
 * its cost grows with the orders triggered, not with the orders open.
 *
 * Each set is kept in sorted blocks of at most BLOCK_MAX entries, ordered by (level, key): a
 * change binary-searches the blocks, then the entry in its block, and moves at most one block's
 * entries (O(log n + BLOCK_MAX)), where one sorted array moved every later entry on each change
 * (O(n): 5,000 removals from 100,000 open orders blocked the room for a second). Many orders at
 * one level (round pending prices) cost nothing extra: the key breaks the tie.
 */
import type { Crossing } from "~/domain/contract";

/** A block splits in two when it passes this size; neighbours merge when both fit in half of it. */
export const BLOCK_MAX = 1024;

interface Block {
  levels: number[];
  keys: number[];
}

/** (level, key) order: negative when a sorts first. */
function compare(levelA: number, keyA: number, levelB: number, keyB: number) {
  return levelA !== levelB ? levelA - levelB : keyA - keyB;
}

export class SortedLevels {
  private blocks: Block[] = [];
  private count = 0;

  get size() {
    return this.count;
  }

  /** The lowest level, or null when empty. */
  first(): number | null {
    return this.blocks[0]?.levels[0] ?? null;
  }

  /** The highest level, or null when empty. */
  last(): number | null {
    const b = this.blocks[this.blocks.length - 1];
    return b ? b.levels[b.levels.length - 1]! : null;
  }

  /** First block whose last entry is at or after (level, key); blocks.length if none. */
  private blockFor(level: number, key: number) {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const b = this.blocks[mid]!;
      const last = b.levels.length - 1;
      if (compare(b.levels[last]!, b.keys[last]!, level, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First index in the block whose entry is at or after (level, key). */
  private static position(b: Block, level: number, key: number) {
    let lo = 0;
    let hi = b.levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(b.levels[mid]!, b.keys[mid]!, level, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Replaces the contents with these entries (sorted once: loading 100,000 orders is not 100,000 inserts). */
  assign(entries: [level: number, key: number][]) {
    entries.sort((a, b) => compare(a[0], a[1], b[0], b[1]));
    this.blocks = [];
    const half = BLOCK_MAX >>> 1;
    for (let i = 0; i < entries.length; i += half) {
      const slice = entries.slice(i, i + half);
      this.blocks.push({ levels: slice.map((e) => e[0]), keys: slice.map((e) => e[1]) });
    }
    this.count = entries.length;
  }

  insert(level: number, key: number) {
    if (this.blocks.length === 0) {
      this.blocks.push({ levels: [level], keys: [key] });
      this.count = 1;
      return;
    }
    const at = Math.min(this.blockFor(level, key), this.blocks.length - 1);
    const b = this.blocks[at]!;
    const i = SortedLevels.position(b, level, key);
    b.levels.splice(i, 0, level);
    b.keys.splice(i, 0, key);
    this.count += 1;
    if (b.levels.length > BLOCK_MAX) {
      const half = b.levels.length >>> 1;
      const next: Block = { levels: b.levels.splice(half), keys: b.keys.splice(half) };
      this.blocks.splice(at + 1, 0, next);
    }
  }

  remove(level: number, key: number): boolean {
    const at = this.blockFor(level, key);
    const b = this.blocks[at];
    if (!b) return false;
    const i = SortedLevels.position(b, level, key);
    if (b.levels[i] !== level || b.keys[i] !== key) return false;
    b.levels.splice(i, 1);
    b.keys.splice(i, 1);
    this.count -= 1;
    if (b.levels.length === 0) this.blocks.splice(at, 1);
    else {
      const next = this.blocks[at + 1];
      if (next && b.levels.length + next.levels.length <= BLOCK_MAX >>> 1) {
        b.levels.push(...next.levels);
        b.keys.push(...next.keys);
        this.blocks.splice(at + 1, 1);
      }
    }
    return true;
  }

  /** Keys with level >= x (fired by a fall to x). */
  atOrAbove(x: number): number[] {
    const out: number[] = [];
    const start = this.blockFor(x, -Infinity);
    for (let at = start; at < this.blocks.length; at++) {
      const b = this.blocks[at]!;
      // later blocks lie wholly at or above x
      const from = at === start ? SortedLevels.position(b, x, -Infinity) : 0;
      for (let i = from; i < b.keys.length; i++) out.push(b.keys[i]!);
    }
    return out;
  }

  /** Keys with level <= x (fired by a rise to x). */
  atOrBelow(x: number): number[] {
    const out: number[] = [];
    for (const b of this.blocks) {
      if (b.levels[0]! > x) break;
      for (let i = 0; i < b.levels.length && b.levels[i]! <= x; i++) out.push(b.keys[i]!);
    }
    return out;
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

  /**
   * Per instrument, the nearest levels a move can reach: the highest "down" trigger (a fall to it
   * fires) and the lowest "up" trigger (a rise to it fires). A range inside them fires nothing.
   */
  bounds(): Map<string, { down: number | null; up: number | null }> {
    const out = new Map<string, { down: number | null; up: number | null }>();
    for (const [code, b] of this.books) if (b.down.size + b.up.size > 0) out.set(code, { down: b.down.last(), up: b.up.first() });
    return out;
  }

  size() {
    let n = 0;
    for (const b of this.books.values()) n += b.down.size + b.up.size;
    return n;
  }
}
