declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("@cloudflare/vitest-pool-workers").D1Migration[];
    /** An empty database for the migration tests (vitest.workers.config.ts). */
    MIGRATION_DB: D1Database;
  }
}
