/**
 * The import direction of every folder (eslint.config.js, ADR 020): ESLint's own Node API lints
 * small in-memory sources at paths inside each folder, so a forbidden import is proven to be
 * reported (and an allowed one proven to pass), whatever the rest of the tree looks like.
 */
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
let eslint: ESLint;

beforeAll(async () => {
  eslint = new ESLint({ cwd: root });
  // the first lint loads the configuration, the parser and the plugins: once, here
  await eslint.lintText("export {};\n", { filePath: path.join(root, "app/domain/warm-up.ts") });
});

/** The import-direction messages of one source at one path. */
async function refusals(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = [x];\n`, { filePath: path.join(root, filePath) });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

const reported = async (filePath: string, source: string) => expect(await refusals(filePath, source)).not.toEqual([]);
const allowed = async (filePath: string, source: string) => expect(await refusals(filePath, source)).toEqual([]);

describe("import direction per folder", () => {
  it("app/domain/ imports nothing but the domain", async () => {
    await allowed("app/domain/x.ts", `import { x } from "~/domain/money";`);
    await reported("app/domain/x.ts", `import { x } from "~/lib/redirect";`);
    await reported("app/domain/x.ts", `import { x } from "~/i18n/config";`);
    await reported("app/domain/x.ts", `import { x } from "~/services/contract/queries.server";`);
    await reported("app/domain/x.ts", `import type { x } from "~/services/outcome";`);
    await reported("app/domain/x.ts", `import { x } from "../lib/redirect";`);
  });

  it("app/lib/ imports the lib and the domain only", async () => {
    await allowed("app/lib/x.ts", `import { x } from "~/lib/format";`);
    await allowed("app/lib/x.ts", `import { x } from "~/domain/money";`);
    await reported("app/lib/x.ts", `import { x } from "~/services/x.server";`);
    // services moving into folders stay out of reach
    await reported("app/lib/x.server.ts", `import { x } from "~/services/withdraw/queries.server";`);
    await reported("app/lib/x.ts", `import type { x } from "~/services/uploads.server";`);
    await reported("app/lib/x.ts", `import { x } from "../services/x.server";`);
    await reported("app/lib/x.ts", `import { x } from "~/forms/parse";`);
    await reported("app/lib/x.ts", `import { x } from "~/i18n/config";`);
    await reported("app/lib/x.ts", `import { x } from "~/root";`);
    await reported("app/lib/x.ts", `import { x } from "~/context.server";`);
  });

  it("app/i18n/ imports i18n, the lib and the domain", async () => {
    await allowed("app/i18n/x.server.ts", `import { x } from "~/lib/cookies.server";`);
    await allowed("app/i18n/x.ts", `import { x } from "~/i18n/config";`);
    await reported("app/i18n/x.server.ts", `import { x } from "~/services/preferences.server";`);
    await reported("app/i18n/x.ts", `import { x } from "~/forms/intents";`);
  });

  it("components import the lib, the domain, forms, hooks and i18n, and services only as types", async () => {
    await allowed("app/components/x.tsx", `import { x } from "~/components/forms";`);
    await allowed("app/components/x.tsx", `import { x } from "~/lib/root-data";`);
    await allowed("app/components/x.tsx", `import { x } from "~/forms/intents";`);
    await allowed("app/components/x.tsx", `import { x } from "~/hooks/x";`);
    await allowed("app/components/x.tsx", `import type { x } from "~/services/option/queries.server";`);
    await allowed("app/components/x.tsx", `import type { x } from "~/route-helpers/publish.server";`);
    await reported("app/components/x.tsx", `import { x } from "~/root";`);
    await reported("app/components/x.tsx", `import { x } from "~/services/uploads.server";`);
    await reported("app/components/x.tsx", `import { x } from "~/routes/trade";`);
    await reported("app/components/x.tsx", `import { x } from "~/api/router.server";`);
    await reported("app/components/x.tsx", `import { x } from "~/context.server";`);
  });

  it("forms import types from services, never their code", async () => {
    await allowed("app/forms/x.ts", `import type { x } from "~/services/outcome";`);
    await allowed("app/forms/x.ts", `import { x } from "~/domain/money";`);
    await reported("app/forms/x.ts", `import { x } from "~/services/outcome";`);
    await reported("app/forms/x.ts", `import { x } from "~/components/forms";`);
  });

  it("the contexts import no service code", async () => {
    await allowed("app/context.server.ts", `import type { x } from "~/services/session.server";`);
    await allowed("app/context.server.ts", `import { x } from "~/i18n/i18n.server";`);
    await reported("app/context.server.ts", `import { x } from "~/services/session.server";`);
    await reported("app/context.server.ts", `import { x } from "~/services/rate-limit.server";`);
    await reported("app/env.server.ts", `import { x } from "~/services/settings.server";`);
  });

  it("services import services, the domain, the lib, i18n, the database and the contexts; form modules only as command types", async () => {
    await allowed("app/services/contract/commands.server.ts", `import { x } from "~/services/ledger/post.server";`);
    await allowed("app/services/x.server.ts", `import { x } from "~/db/schema";`);
    await allowed("app/services/x.server.ts", `import type { x } from "~/forms/withdraw";`);
    await reported("app/services/x.server.ts", `import { x } from "~/forms/withdraw";`);
    await reported("app/services/x.server.ts", `import { x } from "~/routes/trade";`);
    await reported("app/services/x.server.ts", `import { x } from "~/components/forms";`);
    await reported("app/services/x.server.ts", `import { x } from "~/route-helpers/publish.server";`);
    await reported("app/services/contract/x.server.ts", `import { x } from "../../routes/trade";`);
    await reported("app/services/x.server.ts", `import { x } from "@remix-run/react";`);
  });

  it("the database layer imports no service", async () => {
    await allowed("app/db/x.ts", `import { x } from "~/domain/money";`);
    await reported("app/db/x.ts", `import { x } from "~/services/ledger/accounts.server";`);
  });

  it("the JSON API and the routes import anything below them, not each other", async () => {
    await allowed("app/api/x.server.ts", `import { x } from "~/services/contract/commands.server";`);
    await allowed("app/api/x.server.ts", `import { x } from "~/forms/trade";`);
    await reported("app/api/x.server.ts", `import { x } from "~/routes/trade";`);
    await reported("app/api/x.server.ts", `import { x } from "~/route-helpers/publish.server";`);
    await allowed("app/routes/x.tsx", `import { x } from "~/route-helpers/publish.server";`);
    await allowed("app/routes/x.tsx", `import { x } from "~/root";`);
    await reported("app/routes/x.tsx", `import { x } from "~/api/contract.server";`);
    await allowed("app/route-helpers/x.server.ts", `import { x } from "~/services/content/pages.server";`);
    await reported("app/route-helpers/x.server.ts", `import { x } from "~/components/forms";`);
  });

  it("rooms import the domain and the lib; services only as types (their code comes through party/services.ts)", async () => {
    await allowed("party/x.ts", `import { x } from "~/domain/engine";`);
    await allowed("party/x.ts", `import type { x } from "~/services/contract/settlement.server";`);
    await allowed("party/market/x.ts", `import { x } from "../services";`);
    await reported("party/x.ts", `import { x } from "~/services/contract/settlement.server";`);
    await reported("party/x.ts", `import { x } from "~/components/live";`);
    await reported("app/services/x.server.ts", `import { x } from "../../party/services";`);
  });
});
