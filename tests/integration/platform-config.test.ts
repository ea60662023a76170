// The switch of upstream mode (issue 23, ADR 024): PLATFORM=local (the default) or upstream, with
// the backend's address and its market socket. A missing or malformed setting stops the Worker at
// its first request with the variable named, never a half-configured front end.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { ConfigError, readConfig } from "~/env.server";
import { createAppContext } from "~/services/app-context.server";

const upstream = {
  ENVIRONMENT: "local",
  PLATFORM: "upstream",
  UPSTREAM_API_URL: "https://api.example.com/",
  MARKET_FEED: "upstream",
  MARKET_UPSTREAM_URL: "wss://api.example.com/ws",
} as Env;

const refused = (env: Partial<Env>) => {
  try {
    readConfig({ ...upstream, ...env } as Env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("accepted");
};

describe("PLATFORM", () => {
  it("is local by default and when set so", () => {
    expect(readConfig({ ENVIRONMENT: "local" } as Env).platform).toEqual({ kind: "local" });
    expect(readConfig({ ENVIRONMENT: "local", PLATFORM: "local", UPSTREAM_API_URL: "not read" } as Env).platform).toEqual({
      kind: "local",
    });
  });

  it("upstream takes the backend's base address, without a trailing slash, a path under it kept", () => {
    expect(readConfig(upstream).platform).toEqual({ kind: "upstream", apiUrl: "https://api.example.com" });
    expect(readConfig({ ...upstream, UPSTREAM_API_URL: "http://127.0.0.1:8787/backend//" } as Env).platform).toEqual({
      kind: "upstream",
      apiUrl: "http://127.0.0.1:8787/backend",
    });
  });

  it("refuses an unknown platform, and upstream without its address or its market socket, naming the variable", () => {
    expect(refused({ PLATFORM: "remote" })).toMatch(/PLATFORM must be "local" or "upstream"/);
    expect(refused({ UPSTREAM_API_URL: undefined })).toMatch(/needs UPSTREAM_API_URL/);
    expect(refused({ UPSTREAM_API_URL: "  " })).toMatch(/needs UPSTREAM_API_URL/);
    // the simulated market in front of a real backend would quote prices it never trades at
    expect(refused({ MARKET_FEED: "sim" })).toMatch(/MARKET_FEED=upstream and MARKET_UPSTREAM_URL/);
    expect(refused({ MARKET_FEED: undefined })).toMatch(/MARKET_FEED=upstream/);
    expect(refused({ MARKET_UPSTREAM_URL: "" })).toMatch(/MARKET_UPSTREAM_URL/);
  });

  it("refuses an address that is not plain http(s): another scheme, credentials, a query or a fragment", () => {
    expect(refused({ UPSTREAM_API_URL: "api.example.com" })).toMatch(/absolute http\(s\) address/);
    expect(refused({ UPSTREAM_API_URL: "ftp://api.example.com" })).toMatch(/must be an http\(s\) address/);
    expect(refused({ UPSTREAM_API_URL: "javascript:alert(1)" })).toMatch(/must be an http\(s\) address/);
    for (const bad of ["https://user:pw@api.example.com", "https://api.example.com/?k=1", "https://api.example.com/#x"]) {
      expect(refused({ UPSTREAM_API_URL: bad })).toMatch(/credentials, a query or a fragment/);
    }
  });
});

describe("upstream mode serves only the areas whose adapters exist", () => {
  const upstreamEnv = {
    ...env,
    PLATFORM: "upstream",
    UPSTREAM_API_URL: "https://api.example.com",
    MARKET_FEED: "upstream",
    MARKET_UPSTREAM_URL: "wss://api.example.com/ws",
  } as Env;
  const waitUntil = () => {};
  const contextFor = (path: string, e: Env = upstreamEnv) =>
    createAppContext(new Request(`https://front.example${path}`, { headers: { "accept-language": "en" } }), e, { waitUntil });

  it("an area without its adapter is hidden (404), never served from this Worker's own D1 in the backend's place", async () => {
    for (const path of [
      "/mine/charge",
      "/mine/charge.data",
      "/loan",
      "/follow",
      "/admin",
      "/api/user/info",
      "/v2/api/forex/trade_list",
      "/dev/outbox",
    ]) {
      const refused = await contextFor(path).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused, path).toBeInstanceOf(Response);
      expect((refused as Response).status, path).toBe(404);
    }
  });

  it("the served pages get their context; the platform itself serves everything as before", async () => {
    for (const path of ["/", "/_root.data", "/login", "/login.data", "/logout", "/language", "/locales/ar"]) {
      expect((await contextFor(path)).config.platform.kind, path).toBe("upstream");
    }
    expect((await contextFor("/mine/wallet", env as Env)).config.platform).toEqual({ kind: "local" });
  });
});
