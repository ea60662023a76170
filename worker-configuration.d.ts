// Bindings and vars of wrangler.toml (kept in step with it; `wrangler types` can regenerate).
declare namespace Cloudflare {
  interface Env {
    DB: D1Database;
    UPLOADS: R2Bucket;
    MARKET_ROOM: DurableObjectNamespace<import("./party/market-room").MarketRoom>;
    LIVE_ROOM: DurableObjectNamespace<import("./party/live-room").LiveRoom>;
    ENGINE_SHARD: DurableObjectNamespace<import("./party/engine-shard").EngineShard>;
    /** Engine shards shared by unsplit instruments, and hot instruments split by user ("CODE:n,…"). */
    ENGINE_SHARDS?: string;
    ENGINE_SPLIT?: string;
    ENGINE_SETTLE_CHUNK?: string;
    /** Daily and bulk jobs in chunks (app/services/jobs.server.ts). */
    JOBS: Queue<import("./app/domain/jobs").JobMessage>;
    ENVIRONMENT?: "local" | "production";
    MARKET_SEED?: string;
    MARKET_FEED?: "sim" | "upstream" | "binance";
    MARKET_UPSTREAM_URL?: string;
    MARKET_UPSTREAM_TOKEN?: string;
    MAIL_PROVIDER?: "outbox" | "http";
    SESSION_SECRET?: string;
    PASSWORD_PEPPER?: string;
    /** Which backend holds users, money and orders: "local" (this Worker's D1, the default) or "upstream" (ADR 024). */
    PLATFORM?: string;
    /** The §7 backend's base address in upstream mode. */
    UPSTREAM_API_URL?: string;
    /** Trusts a front end's forwarded client address when it sends this secret (ADR 024). */
    UPSTREAM_SHARED_SECRET?: string;
    PBKDF2_ITERATIONS?: string;
    MAIL_HTTP_URL?: string;
    MAIL_HTTP_TOKEN?: string;
    MAIL_FROM?: string;
    SMS_HTTP_URL?: string;
    SMS_HTTP_TOKEN?: string;
    PC_HOST?: string;
  }
}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
interface Env extends Cloudflare.Env {}
