// Every integration test file starts from a migrated, seeded database (the same seed as npm start).
import { applyD1Migrations, env } from "cloudflare:test";
import { seedStatements } from "~/db/seed";
import { LOCAL_OPERATOR_EMAIL, LOCAL_OPERATOR_PASSWORD, LOCAL_PEPPER } from "~/env.server";
import { hashPassword } from "~/services/password.server";

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
const seeded = await env.DB.prepare("SELECT COUNT(*) AS n FROM companies").first<{ n: number }>();
if (!seeded?.n) {
  const hash = await hashPassword(LOCAL_OPERATOR_PASSWORD, LOCAL_PEPPER, 100_000);
  const statements = seedStatements({ operatorEmail: LOCAL_OPERATOR_EMAIL, operatorPasswordHash: hash });
  await env.DB.batch(statements.map((sql) => env.DB.prepare(sql)));
}
