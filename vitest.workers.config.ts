// Integration tests in workerd (the real Workers runtime) with real D1 and Durable Objects.
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    plugins: [
      cloudflareTest({
        main: "./app/server.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: { ENVIRONMENT: "local", TEST_MIGRATIONS: migrations },
          // an empty database of its own for the migration tests (migrated step by step, with rows from before)
          d1Databases: { DB: "00000000-0000-4000-8000-000000000000", MIGRATION_DB: "migration-test" },
        },
      }),
    ],
    resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
    ssr: { optimizeDeps: { include: ["@remix-run/cloudflare"] } },
    test: {
      include: ["tests/integration/**/*.test.ts"],
      setupFiles: ["./tests/integration/setup.ts"],
      globalSetup: ["./tests/integration/global-setup.ts", "./tests/integration/api-contract-recorder.ts"],
      deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
      testTimeout: 30_000,
    },
  };
});
