/**
 * Engine shards (docs/decisions/018-scale.md, "Engine shards"): no single object holds every
 * open order. Each instrument belongs to one of `buckets` shards (dealt round the sorted list of
 * active instruments, so no shard holds more than its share), and a
 * hot instrument named in the split is spread over its own `parts` shards by user id, so one
 * user's orders and options on it always sit together (their live profit, their delivery) and a
 * copy that is let run never changes shard. Pure: the market room plans, the shards load by it.
 */

export interface ShardPlan {
  /** Shards shared by the instruments that are not split. */
  buckets: number;
  /** Hot instruments: code → how many shards (by user id) hold its orders. */
  split: Record<string, number>;
  /** Each unsplit instrument's shard (see `assign`); an instrument not listed goes by a hash of its code. */
  assigned?: Record<string, number>;
}

/** One engine shard: the instruments it holds, and for a split instrument which part by user. */
export interface ShardSpec {
  name: string;
  codes: string[];
  /** A split instrument: this shard holds the users with userId % parts === part. */
  part?: number;
  parts?: number;
}

export const MAX_SHARDS = 64;

/** The plan from configuration (ENGINE_SHARDS, ENGINE_SPLIT "CODE:n,CODE:n"); throws on a bad value. */
export function parsePlan(shards: string | undefined, split: string | undefined): ShardPlan {
  const buckets = shards === undefined || shards.trim() === "" ? 2 : Number(shards);
  if (!Number.isInteger(buckets) || buckets < 1 || buckets > MAX_SHARDS)
    throw new Error(`ENGINE_SHARDS must be a whole number from 1 to ${MAX_SHARDS}`);
  const out: Record<string, number> = {};
  for (const item of (split ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^([A-Za-z0-9._-]+):(\d+)$/.exec(item);
    const parts = m ? Number(m[2]) : NaN;
    if (!m || parts < 1 || parts > MAX_SHARDS) throw new Error(`ENGINE_SPLIT: "${item}" is not CODE:n with n from 1 to ${MAX_SHARDS}`);
    out[m[1]!] = parts;
  }
  return { buckets, split: out };
}

/** FNV-1a of a code: the same bucket for it in every room and every restart. */
export function codeBucket(code: string, buckets: number) {
  let h = 0x811c9dc5;
  for (let i = 0; i < code.length; i++) {
    h ^= code.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % buckets;
}

const partsOf = (plan: ShardPlan, code: string) => ((plan.split[code] ?? 1) > 1 ? plan.split[code]! : 1);

/**
 * The plan for these instruments: the unsplit ones dealt round the shared shards in code order,
 * so none holds more than ceil(n / buckets) of them (a hash alone put 5 of 19 in one of 8).
 */
export function assign(plan: ShardPlan, codes: readonly string[]): ShardPlan {
  const unsplit = [...new Set(codes)].filter((c) => partsOf(plan, c) <= 1).sort();
  return { ...plan, assigned: Object.fromEntries(unsplit.map((c, i) => [c, i % plan.buckets])) };
}

const bucketOf = (plan: ShardPlan, code: string) => plan.assigned?.[code] ?? codeBucket(code, plan.buckets);

/** The name of the shard holding an order or option of `userId` on `code`. */
export function shardName(plan: ShardPlan, code: string, userId: number): string {
  const parts = partsOf(plan, code);
  if (parts > 1) return `engine:${code}:${userId % parts}/${parts}`;
  return `engine:b${bucketOf(plan, code)}/${plan.buckets}`;
}

/** Every shard of the plan for these instruments (an empty bucket is no shard). */
export function shardsFor(plan: ShardPlan, codes: readonly string[]): ShardSpec[] {
  const buckets = new Map<number, string[]>();
  const out: ShardSpec[] = [];
  for (const code of [...codes].sort()) {
    const parts = partsOf(plan, code);
    if (parts > 1) {
      for (let part = 0; part < parts; part++) out.push({ name: `engine:${code}:${part}/${parts}`, codes: [code], part, parts });
      continue;
    }
    const b = bucketOf(plan, code);
    let list = buckets.get(b);
    if (!list) buckets.set(b, (list = []));
    list.push(code);
  }
  for (const [b, list] of [...buckets].sort((x, y) => x[0] - y[0])) out.push({ name: `engine:b${b}/${plan.buckets}`, codes: list });
  return out;
}

/** Whether a row of `userId` on `code` belongs to the shard. */
export function holds(spec: ShardSpec, code: string, userId: number) {
  if (!spec.codes.includes(code)) return false;
  return spec.parts === undefined || userId % spec.parts === spec.part;
}

/** The shards holding one instrument (several when it is split). */
export function shardsOfCode(specs: readonly ShardSpec[], code: string): ShardSpec[] {
  return specs.filter((s) => s.codes.includes(code));
}

/** What a shard's start reads from D1: its instruments, and its part of a split one. */
export interface ShardFilter {
  codes: string[];
  parts: number;
  part: number;
}

export function filterOf(spec: ShardSpec): ShardFilter {
  return { codes: spec.codes, parts: spec.parts ?? 1, part: spec.part ?? 0 };
}
