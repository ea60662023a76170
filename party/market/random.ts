/**
 * Counter-based pseudo-random numbers: the value for (seed, stream, index) never depends on the
 * order of evaluation, so the simulated market is reproducible step by step.
 */
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Uniform in (0, 1). */
export function uniform(seed: number, stream: number, index: number, salt = 0): number {
  let h = mix(seed ^ 0x9e3779b9);
  h = mix(h ^ Math.imul(stream + 1, 0x27d4eb2d));
  h = mix(h ^ (index | 0));
  h = mix(h ^ Math.floor(index / 4_294_967_296) ^ Math.imul(salt + 7, 0x165667b1));
  return (h + 0.5) / 4_294_967_296;
}

/** Standard normal (Box–Muller). */
export function normal(seed: number, stream: number, index: number, salt = 0): number {
  const u1 = uniform(seed, stream, index, salt * 2 + 1);
  const u2 = uniform(seed, stream, index, salt * 2 + 2);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
