// `npm start`: local D1 migrated and seeded, app built, served at http://localhost:8787 with
// every binding local (D1, Durable Objects, R2), no Cloudflare login, telemetry off.
import { bin, run, start } from "./lib.mjs";
import { seedDatabase } from "./seed.mjs";
import { LOCAL_UPSTREAM_SECRET } from "./upstream.mjs";

const port = process.env.PORT ?? "8787";
run(bin("wrangler"), ["d1", "migrations", "apply", "DB", "--local"], { stdio: ["ignore", "inherit", "inherit"] });
await seedDatabase();
run(bin("remix"), ["build"]);
const child = start(bin("wrangler"), [
  "dev",
  "--port",
  port,
  "--var",
  "ENVIRONMENT:local",
  // honours the browser's address that `npm run start:upstream` forwards (ADR 024)
  "--var",
  `UPSTREAM_SHARED_SECRET:${LOCAL_UPSTREAM_SECRET}`,
  "--test-scheduled",
  "--show-interactive-dev-session=false",
]);
console.log(`\nBourse is starting at http://localhost:${port}  (operator: operator@bourse.local / operator-local-only)\n`);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
