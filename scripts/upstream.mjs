// Upstream mode on this machine (issue 23, ADR 024): a second `wrangler dev` of the same build,
// named bourse-upstream, with its own local state, in front of the platform that `npm start`
// serves. Used by `npm run start:upstream` and by the e2e run's upstream project.
import { bin, run } from "./lib.mjs";

/**
 * The shared secret both local instances use, so the platform honours the browser's address the
 * front end forwards (x-bourse-client-ip). Local runs only: a deployment sets its own with
 * `wrangler secret put UPSTREAM_SHARED_SECRET` on both sides.
 */
export const LOCAL_UPSTREAM_SECRET = "local-only-upstream-secret-not-for-deployment";

/** Applies the migrations to the front end's own D1 (its cache and sessions; nothing is seeded). */
export function migrateUpstreamState(state) {
  run(bin("wrangler"), ["d1", "migrations", "apply", "DB", "--local", `--persist-to=${state}`], { stdio: ["ignore", "ignore", "inherit"] });
}

/** `wrangler dev` arguments of the upstream-mode instance on `port`, with the platform at `backendPort`. */
export function upstreamDevArgs({ port, backendPort, state, inspectorPort }) {
  const backend = `127.0.0.1:${backendPort}`;
  return [
    "dev",
    "--name",
    "bourse-upstream",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort),
    `--persist-to=${state}`,
    "--var",
    "ENVIRONMENT:local",
    "--var",
    "PLATFORM:upstream",
    "--var",
    `UPSTREAM_API_URL:http://${backend}`,
    "--var",
    "MARKET_FEED:upstream",
    "--var",
    `MARKET_UPSTREAM_URL:ws://${backend}/v2/ws`,
    "--var",
    `UPSTREAM_SHARED_SECRET:${LOCAL_UPSTREAM_SECRET}`,
    "--show-interactive-dev-session=false",
  ];
}
