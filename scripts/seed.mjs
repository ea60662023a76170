// Seeds D1 (idempotent). Local by default; `node scripts/seed.mjs --remote` seeds the deployed
// database and then requires OPERATOR_EMAIL, OPERATOR_PASSWORD and PASSWORD_PEPPER (the same
// pepper as the Worker's secret); the local defaults are refused there.
import { build } from "esbuild";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { bin, root, run } from "./lib.mjs";

export async function buildSeedSql(options = {}) {
  return (await buildSeedStatements(options)).join("\n");
}

/** The seed as a list of SQL statements (each may span lines). */
export async function buildSeedStatements({ remote = false } = {}) {
  const outdir = path.join(root, ".wrangler", "tmp");
  mkdirSync(outdir, { recursive: true });
  const outfile = path.join(outdir, `seed-${process.pid}.mjs`);
  await build({
    entryPoints: [path.join(root, "scripts", "seed-entry.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "warning",
    tsconfig: path.join(root, "tsconfig.json"),
    external: ["valibot"],
  });
  const seed = await import(pathToFileURL(outfile).href);
  const email = process.env.OPERATOR_EMAIL ?? (remote ? "" : seed.LOCAL_OPERATOR_EMAIL);
  const password = process.env.OPERATOR_PASSWORD ?? (remote ? "" : seed.LOCAL_OPERATOR_PASSWORD);
  const pepper = process.env.PASSWORD_PEPPER ?? (remote ? "" : seed.LOCAL_PEPPER);
  if (remote) {
    if (!email || !password || !pepper)
      throw new Error("OPERATOR_EMAIL, OPERATOR_PASSWORD and PASSWORD_PEPPER are required to seed a remote database");
    if (password === seed.LOCAL_OPERATOR_PASSWORD || pepper === seed.LOCAL_PEPPER)
      throw new Error("the local default operator password and pepper are refused in production");
    if (password.length < 12) throw new Error("OPERATOR_PASSWORD must have at least 12 characters");
  }
  const hash = await seed.hashPassword(password, pepper, seed.MAX_PBKDF2_ITERATIONS);
  return seed.seedStatements({ operatorEmail: email, operatorPasswordHash: hash });
}

export async function seedDatabase({ remote = false, persistTo } = {}) {
  const sql = await buildSeedSql({ remote });
  const file = path.join(root, ".wrangler", "tmp", "seed.sql");
  writeFileSync(file, sql);
  const args = ["d1", "execute", "DB", remote ? "--remote" : "--local", `--file=${file}`, "--yes"];
  if (persistTo) args.push(`--persist-to=${persistTo}`);
  run(bin("wrangler"), args, { stdio: ["ignore", "ignore", "inherit"] });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await seedDatabase({ remote: process.argv.includes("--remote") });
  console.log("seeded");
}
