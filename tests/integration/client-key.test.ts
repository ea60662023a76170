// Per-client limits key on the client's address (app/lib/http.server.ts clientKeyOf). A front end
// in upstream mode forwards the browser's address with the shared secret (ADR 024); anyone else
// who sends that header, to pose as many clients and escape the limits, is ignored.
import { describe, expect, it } from "vitest";
import { ConfigError, readConfig } from "~/env.server";
import { clientKeyOf } from "~/lib/http.server";

const SECRET = "a-shared-secret-of-at-least-32-characters";
const request = (headers: Record<string, string>) => new Request("https://bourse.example/login", { headers });

describe("the client of a request", () => {
  it("is Cloudflare's address; IPv6 by its /64; none is the local client", () => {
    expect(clientKeyOf(request({ "cf-connecting-ip": "198.51.100.7" }))).toBe("198.51.100.7");
    expect(clientKeyOf(request({ "cf-connecting-ip": "2001:db8:1:2:aaaa::1" }))).toBe("2001:db8:1:2::/64");
    expect(clientKeyOf(request({}))).toBe("local");
  });

  it("attack: a forwarded address without the secret, with a wrong one, or where none is configured changes nothing", () => {
    const keys = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const forged = { "cf-connecting-ip": "198.51.100.7", "x-bourse-client-ip": `203.0.113.${i}` };
      keys.add(clientKeyOf(request(forged), SECRET));
      keys.add(clientKeyOf(request({ ...forged, "x-bourse-upstream-secret": SECRET.slice(0, -1) + "x" }), SECRET));
      keys.add(clientKeyOf(request({ ...forged, "x-bourse-upstream-secret": SECRET }), null));
    }
    expect([...keys]).toEqual(["198.51.100.7"]);
  });

  it("our front end's forwarded address, with the secret, is the client (each browser its own limits)", () => {
    const via = (ip: string) =>
      clientKeyOf(request({ "cf-connecting-ip": "192.0.2.1", "x-bourse-client-ip": ip, "x-bourse-upstream-secret": SECRET }), SECRET);
    expect(via("203.0.113.5")).toBe("203.0.113.5");
    expect(via("2001:db8:9:9:1::2")).toBe("2001:db8:9:9::/64");
    // not an address: the front end's own
    expect(via("not an address; drop table")).toBe("192.0.2.1");
  });

  it("the secret is configured with UPSTREAM_SHARED_SECRET: 32 characters at least, none by default", () => {
    expect(readConfig({ ENVIRONMENT: "local" } as Env).upstreamSecret).toBeNull();
    expect(readConfig({ ENVIRONMENT: "local", UPSTREAM_SHARED_SECRET: SECRET } as Env).upstreamSecret).toBe(SECRET);
    expect(() => readConfig({ ENVIRONMENT: "local", UPSTREAM_SHARED_SECRET: "short" } as Env)).toThrow(ConfigError);
  });
});
