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
        },
      }),
    ],
    resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
    ssr: { optimizeDeps: { include: ["@remix-run/cloudflare"] } },
    test: {
      include: ["tests/integration/**/*.test.ts"],
      setupFiles: ["./tests/integration/setup.ts"],
      globalSetup: ["./tests/integration/global-setup.ts"],
      deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
      testTimeout: 30_000,
    },
  };
});
