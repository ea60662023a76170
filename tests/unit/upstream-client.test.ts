// The §7 client of upstream mode (issue 23): the spec's headers, the client address only with the
// shared secret, one retry for reads and none for commands, the envelope's four outcomes, bounded
// waits, and no path that could leave the backend's host. A real HTTP server stands for the backend.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { callUpstream, upstreamUrl, type UpstreamTarget } from "~/services/upstream/client.server";

interface Seen {
  method: string;
  url: URL;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let base = "";
const seen: Seen[] = [];
/** What the backend answers next, in order (the last one repeats). */
let answers: ((res: import("node:http").ServerResponse) => void)[] = [];
const json = (status: number, value: unknown) => (res: import("node:http").ServerResponse) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      seen.push({ method: req.method!, url: new URL(req.url!, "http://x"), headers: req.headers, body });
      const answer = answers.length > 1 ? answers.shift()! : answers[0];
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/backend/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  answers = [json(200, { code: 1, msg: "success", data: { id: 7 } })];
});

const target = (over: Partial<UpstreamTarget> = {}): UpstreamTarget => ({ baseUrl: base, secret: "s3cret", timeoutMs: 2_000, ...over });

describe("upstream §7 client", () => {
  it("a GET carries the spec's headers, the timestamp and the client address with the secret; code 1 is the data", async () => {
    const before = Date.now();
    const answer = await callUpstream(target(), {
      method: "GET",
      path: "/api/user/info",
      params: { page: 2, skipped: undefined },
      token: "tok-1",
      lang: "ar",
      clientIp: "203.0.113.9",
      read: true,
    });
    expect(answer).toEqual({ ok: true, data: { id: 7 }, msg: "success" });
    expect(seen).toHaveLength(1);
    const [call] = seen;
    expect(call.method).toBe("GET");
    expect(call.url.pathname).toBe("/backend/api/user/info");
    expect(call.url.searchParams.get("page")).toBe("2");
    expect(call.url.searchParams.has("skipped")).toBe(false);
    expect(Number(call.url.searchParams.get("t"))).toBeGreaterThanOrEqual(before);
    expect(call.headers.authorization).toBe("tok-1");
    expect(call.headers.lang).toBe("ar");
    expect(call.headers["x-bourse-client-ip"]).toBe("203.0.113.9");
    expect(call.headers["x-bourse-upstream-secret"]).toBe("s3cret");
  });

  it("a POST sends its fields as a form, without a timestamp; no secret configured, no client address", async () => {
    await callUpstream(target({ secret: null }), {
      method: "POST",
      path: "/api/user/loginForU",
      params: { account: "a@example.com", password: "pw & more", login_type: 1 },
      lang: "en",
      clientIp: "203.0.113.9",
    });
    const [call] = seen;
    expect(call.method).toBe("POST");
    expect(call.url.search).toBe("");
    expect(new URLSearchParams(call.body).get("password")).toBe("pw & more");
    expect(call.headers["content-type"]).toMatch(/application\/x-www-form-urlencoded/);
    expect(call.headers.authorization).toBeUndefined();
    expect(call.headers["x-bourse-client-ip"]).toBeUndefined();
  });

  it("999 ends the session; another code is a refusal with the backend's message", async () => {
    answers = [json(200, { code: 999, msg: "login again", data: null })];
    expect(await callUpstream(target(), { method: "GET", path: "/api/user/info", lang: "en", token: "old", read: true })).toEqual({
      ok: false,
      kind: "session_ended",
    });
    answers = [json(200, { code: 0, msg: "Insufficient balance", data: { errors: { lots: "Insufficient balance" } } })];
    expect(await callUpstream(target(), { method: "GET", path: "/v2/api/forex/submit", lang: "en", token: "t" })).toEqual({
      ok: false,
      kind: "refused",
      msg: "Insufficient balance",
      data: { errors: { lots: "Insufficient balance" } },
    });
  });

  it("a read is asked once more after a 5xx; a command is not, and its outcome is unknown", async () => {
    answers = [json(503, { code: 0 }), json(200, { code: 1, msg: "ok", data: [1] })];
    expect(await callUpstream(target(), { method: "GET", path: "/api/news/list", lang: "en", read: true })).toEqual({
      ok: true,
      data: [1],
      msg: "ok",
    });
    expect(seen).toHaveLength(2);

    seen.length = 0;
    answers = [json(502, {}), json(200, { code: 1, msg: "ok", data: null })];
    expect(await callUpstream(target(), { method: "GET", path: "/v2/api/forex/submit", lang: "en", token: "t" })).toEqual({
      ok: false,
      kind: "unavailable",
      outcomeUnknown: true,
    });
    expect(seen).toHaveLength(1); // never sent twice
  });

  it("an answer that never comes is bounded by the timeout; a read that times out twice is unavailable (outcome known)", async () => {
    answers = [() => undefined]; // the backend holds the request open
    // (the test's own timeout would catch a call that waits for ever)
    const answer = await callUpstream(target({ timeoutMs: 150 }), { method: "GET", path: "/api/news/list", lang: "en", read: true });
    expect(answer).toEqual({ ok: false, kind: "unavailable", outcomeUnknown: false });
    expect(seen).toHaveLength(2);
  });

  it("an answer that is not the contract's envelope, or a redirect, is the backend being unavailable", async () => {
    answers = [
      (res) => {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html>maintenance</html>");
      },
    ];
    expect(await callUpstream(target(), { method: "POST", path: "/api/user/register", lang: "en" })).toMatchObject({
      ok: false,
      kind: "unavailable",
    });
    answers = [
      (res) => {
        res.writeHead(302, { location: "http://evil.example/" });
        res.end();
      },
    ];
    expect(await callUpstream(target(), { method: "GET", path: "/api/user/info", lang: "en" })).toMatchObject({ kind: "unavailable" });
    expect(seen.every((s) => s.url.pathname.startsWith("/backend/"))).toBe(true);
  });

  it("no path can leave the backend's host", () => {
    expect(upstreamUrl("https://api.example.com/base", "/api/user/info").href).toBe("https://api.example.com/base/api/user/info");
    for (const bad of ["//evil.example/x", "https://evil.example/", "/api/../../admin", "api/user/info", "/api/user?x=1", "/a\\b"])
      expect(() => upstreamUrl("https://api.example.com", bad)).toThrow();
    expect(() => upstreamUrl("ftp://api.example.com", "/api/x")).toThrow();
  });
});
