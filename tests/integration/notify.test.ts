import { afterEach, describe, expect, it, vi } from "vitest";
import { HttpNotifier } from "~/services/notify.server";

const config = {
  provider: "http" as const,
  url: "https://mail.example/send",
  token: "mail-token",
  from: "Bourse <no-reply@example.com>",
  smsUrl: "https://sms.example/send",
  smsToken: "sms-token",
};

describe("HTTP e-mail/SMS provider", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("posts e-mail as JSON with a bearer token, SMS to its own endpoint", async () => {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response("{}", { status: 202 });
    });
    const n = new HttpNotifier(config);
    await n.send({ channel: "email", to: "a@example.com", subject: "Code", body: "123456" });
    await n.send({ channel: "sms", to: "+852 91234567", subject: "Code", body: "123456" });
    expect(calls[0]!.url).toBe(config.url);
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ from: config.from, to: "a@example.com", subject: "Code", text: "123456" });
    expect((calls[0]!.init.headers as Record<string, string>).authorization).toBe("Bearer mail-token");
    expect(calls[1]!.url).toBe(config.smsUrl);
    expect(JSON.parse(String(calls[1]!.init.body))).toEqual({ to: "+852 91234567", text: "123456" });
  });

  it("fails loudly when the provider refuses", async () => {
    vi.stubGlobal("fetch", async () => new Response("no", { status: 500 }));
    await expect(new HttpNotifier(config).send({ channel: "email", to: "a@example.com", subject: "s", body: "b" })).rejects.toThrow(/500/);
  });
});
