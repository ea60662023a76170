import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    environment: "node",
    // upper bounds for waits on a loaded 2-core machine (sockets, ESLint's first start), never timings
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
