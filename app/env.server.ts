/**
 * Configuration, checked with valibot at the edge of the app. Secrets arrive per request in
 * `env` (never read at module load). Local mode (ENVIRONMENT=local, set by `npm start` and the
 * tests) fills in development defaults; production refuses to run without real secrets.
 */
import * as v from "valibot";
import { parsePcHost } from "~/domain/device";
import { parsePlan } from "~/domain/engine-shards";
import { settleChunkOf } from "~/domain/engine";

export const LOCAL_SESSION_SECRET = "local-only-session-secret-not-for-production-use";
export const LOCAL_PEPPER = "local-only-password-pepper";
export const LOCAL_OPERATOR_EMAIL = "operator@bourse.local";
export const LOCAL_OPERATOR_PASSWORD = "operator-local-only";

const EnvSchema = v.object({
  ENVIRONMENT: v.optional(v.picklist(["local", "production"]), "production"),
  SESSION_SECRET: v.optional(v.string()),
  PASSWORD_PEPPER: v.optional(v.string()),
  PBKDF2_ITERATIONS: v.optional(v.string()),
  MAIL_PROVIDER: v.optional(v.picklist(["outbox", "http"]), "outbox"),
  MAIL_HTTP_URL: v.optional(v.pipe(v.string(), v.url())),
  MAIL_HTTP_TOKEN: v.optional(v.string()),
  MAIL_FROM: v.optional(v.string(), "Bourse <no-reply@bourse.local>"),
  SMS_HTTP_URL: v.optional(v.pipe(v.string(), v.url())),
  SMS_HTTP_TOKEN: v.optional(v.string()),
  PC_HOST: v.optional(v.string()),
  ENGINE_SHARDS: v.optional(v.string()),
  ENGINE_SPLIT: v.optional(v.string()),
  ENGINE_SETTLE_CHUNK: v.optional(v.string()),
  UPSTREAM_SHARED_SECRET: v.optional(v.string()),
  PLATFORM: v.optional(v.string()),
  UPSTREAM_API_URL: v.optional(v.string()),
  MARKET_FEED: v.optional(v.string()),
  MARKET_UPSTREAM_URL: v.optional(v.string()),
});

/**
 * Which backend holds users, money and orders (ADR 024): this Worker's own D1 (`local`, the
 * default) or an existing backend that speaks the spec's §7 contract at `apiUrl` (`upstream`).
 */
export type Platform = { kind: "local" } | { kind: "upstream"; apiUrl: string };

export interface Config {
  isLocal: boolean;
  sessionSecret: string;
  pepper: string;
  pbkdf2Iterations: number;
  mail: { provider: "outbox" } | { provider: "http"; url: string; token: string; from: string; smsUrl: string; smsToken: string };
  /** The desktop site's host (spec §9 pc subdomain), or null when off (the default). */
  pcHost: string | null;
  /**
   * The secret a front end in upstream mode sends beside the browser's address (ADR 024): with
   * it, that address is the client for per-client limits. null (the default): the header is ignored.
   */
  upstreamSecret: string | null;
  platform: Platform;
}

export class ConfigError extends Error {}

/** Workers production caps PBKDF2 at 100,000 iterations: never configure more. */
export const MAX_PBKDF2_ITERATIONS = 100_000;

const cache = new WeakMap<object, Config>();

export function readConfig(env: Env): Config {
  const cached = cache.get(env);
  if (cached) return cached;
  const parsed = v.safeParse(EnvSchema, env);
  if (!parsed.success) throw new ConfigError(`invalid configuration: ${v.summarize(parsed.issues)}`);
  const e = parsed.output;
  const isLocal = e.ENVIRONMENT === "local";
  const sessionSecret = e.SESSION_SECRET ?? (isLocal ? LOCAL_SESSION_SECRET : "");
  const pepper = e.PASSWORD_PEPPER ?? (isLocal ? LOCAL_PEPPER : "");
  if (sessionSecret.length < 32) throw new ConfigError("SESSION_SECRET must be set (32+ characters)");
  if (pepper.length < 16) throw new ConfigError("PASSWORD_PEPPER must be set (16+ characters)");
  if (!isLocal && (sessionSecret === LOCAL_SESSION_SECRET || pepper === LOCAL_PEPPER)) {
    throw new ConfigError("local development secrets are refused in production");
  }
  const iterations = Number(e.PBKDF2_ITERATIONS ?? MAX_PBKDF2_ITERATIONS);
  if (!Number.isInteger(iterations) || iterations < 10_000 || iterations > MAX_PBKDF2_ITERATIONS) {
    throw new ConfigError(`PBKDF2_ITERATIONS must be 10000..${MAX_PBKDF2_ITERATIONS}`);
  }
  let mail: Config["mail"] = { provider: "outbox" };
  if (e.MAIL_PROVIDER === "http") {
    if (!e.MAIL_HTTP_URL || !e.MAIL_HTTP_TOKEN) throw new ConfigError("MAIL_HTTP_URL and MAIL_HTTP_TOKEN are required");
    mail = {
      provider: "http",
      url: e.MAIL_HTTP_URL,
      token: e.MAIL_HTTP_TOKEN,
      from: e.MAIL_FROM,
      smsUrl: e.SMS_HTTP_URL ?? e.MAIL_HTTP_URL,
      smsToken: e.SMS_HTTP_TOKEN ?? e.MAIL_HTTP_TOKEN,
    };
  }
  let pcHost: string | null;
  try {
    pcHost = parsePcHost(e.PC_HOST);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  try {
    // the market room reads the same plan: a bad one is refused here, at the first request
    parsePlan(e.ENGINE_SHARDS, e.ENGINE_SPLIT);
    settleChunkOf(e.ENGINE_SETTLE_CHUNK);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const upstreamSecret = e.UPSTREAM_SHARED_SECRET?.trim() || null;
  if (upstreamSecret !== null && upstreamSecret.length < 32) throw new ConfigError("UPSTREAM_SHARED_SECRET must be 32+ characters");
  const platform = platformOf(e);
  const config: Config = { isLocal, sessionSecret, pepper, pbkdf2Iterations: iterations, mail, pcHost, upstreamSecret, platform };
  cache.set(env, config);
  return config;
}

/**
 * PLATFORM and its companions. Upstream mode needs the backend's address (UPSTREAM_API_URL, an
 * http(s) base address with nothing after its path) and its market socket (MARKET_FEED=upstream
 * with MARKET_UPSTREAM_URL): a front end that showed the simulated market in front of a real
 * backend would quote prices the backend never trades at.
 */
function platformOf(e: v.InferOutput<typeof EnvSchema>): Platform {
  const kind = e.PLATFORM?.trim() || "local";
  if (kind === "local") return { kind };
  if (kind !== "upstream") throw new ConfigError(`PLATFORM must be "local" or "upstream", not "${kind.slice(0, 40)}"`);
  const raw = e.UPSTREAM_API_URL?.trim();
  if (!raw) throw new ConfigError("PLATFORM=upstream needs UPSTREAM_API_URL (the backend's http(s) address)");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("UPSTREAM_API_URL must be an absolute http(s) address");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ConfigError("UPSTREAM_API_URL must be an http(s) address");
  if (url.username || url.password || url.search || url.hash) {
    throw new ConfigError("UPSTREAM_API_URL must not carry credentials, a query or a fragment");
  }
  if (e.MARKET_FEED !== "upstream" || !e.MARKET_UPSTREAM_URL?.trim()) {
    throw new ConfigError("PLATFORM=upstream needs MARKET_FEED=upstream and MARKET_UPSTREAM_URL (the backend's §4 socket)");
  }
  return { kind, apiUrl: url.origin + url.pathname.replace(/\/+$/, "") };
}
