// `npm run start:upstream`: upstream mode at http://localhost:8788 in front of the platform that
// `npm start` serves at http://localhost:8787 (start that first). The same build (made here if
// there is none), its own local D1 under .wrangler/upstream-state, migrations applied there.
// To front a real backend instead, see the README ("Upstream mode").
import { existsSync } from "node:fs";
import path from "node:path";
import { bin, root, run, start } from "./lib.mjs";
import { migrateUpstreamState, upstreamDevArgs } from "./upstream.mjs";

const port = process.env.UPSTREAM_PORT ?? "8788";
const backendPort = process.env.PORT ?? "8787";
const state = path.join(root, ".wrangler", "upstream-state");
migrateUpstreamState(state);
if (!existsSync(path.join(root, "build", "index.js"))) run(bin("remix"), ["build"]);
const child = start(bin("wrangler"), [...upstreamDevArgs({ port, backendPort, state, inspectorPort: 9230 }), "--test-scheduled"]);
console.log(`\nBourse (upstream mode) is starting at http://localhost:${port}, in front of http://localhost:${backendPort}\n`);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
