// Runs in Node before the workerd tests: with UPDATE_API_CONTRACT=1, a local endpoint that writes
// the answers recorded by tests/integration/api-contract.test.ts into its fixture file (the test
// runs in workerd, which cannot write to the repository). Without the switch it provides port 0
// and the test compares against the committed fixture.
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    apiContractRecorderPort: number;
  }
}

export const API_CONTRACT_FIXTURE = path.join(import.meta.dirname, "fixtures", "api-contract.json");

export default async function setup(project: TestProject) {
  if (process.env.UPDATE_API_CONTRACT !== "1") {
    project.provide("apiContractRecorderPort", 0);
    return;
  }
  const prettier = await import("prettier");
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (c: Buffer) => chunks.push(c));
    request.on("end", async () => {
      try {
        const text = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8")), null, 2);
        const options = (await prettier.resolveConfig(API_CONTRACT_FIXTURE)) ?? {};
        writeFileSync(API_CONTRACT_FIXTURE, await prettier.format(text, { ...options, filepath: API_CONTRACT_FIXTURE }));
        response.end("written");
      } catch (error) {
        response.statusCode = 500;
        response.end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("apiContractRecorderPort", (server.address() as { port: number }).port);
  return () => server.close();
}
