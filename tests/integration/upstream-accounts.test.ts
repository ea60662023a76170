// Upstream mode's registration and forgotten password (issue 23, ADR 024) against a real §7
// backend (this Worker as the platform): the backend sends and checks the codes and holds the
// user; a registration signs in as a login does; an answer that never came is reported as an
// unknown outcome and never sent again.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { login, register, sendRegisterCode } from "~/services/auth/sign-in.server";
import { resetPassword, sendResetCode } from "~/services/auth/passwords.server";
import { areaList } from "~/services/account.server";
import { createServiceContext } from "~/context.server";
import { upstreamUserForToken } from "~/services/upstream/sessions.server";
import { createUser, latestCode, uniqueEmail } from "./helpers";
import { backend, frontContext } from "./upstream-helpers";

const backendUserByEmail = (email: string) =>
  env.DB.prepare("SELECT id, uid FROM users WHERE email = ?1").bind(email).first<{ id: number; uid: string }>();

describe("registration through the backend", () => {
  it("the backend sends the code, checks it and creates the user; our session is the backend's user", async () => {
    const email = uniqueEmail("front-register");
    const front = await frontContext();
    expect(await sendRegisterCode(front, { type: "email", account: email })).toEqual({ ok: true, value: { seconds: 60 } });
    const code = await latestCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const result = await register(front, {
      type: "email",
      account: email,
      password: "front-pass-1",
      re_password: "front-pass-1",
      sms_code: code!,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const created = await backendUserByEmail(email);
    expect(created).not.toBeNull();
    expect(await upstreamUserForToken(env.DB, result.value.token)).toMatchObject({ id: created!.id, uid: created!.uid, email });
  });

  it("a wrong code: the backend's refusal in its own words on the code's field, and nothing created", async () => {
    const email = uniqueEmail("front-register");
    await sendRegisterCode(await frontContext(), { type: "email", account: email });
    const result = await register(await frontContext(), {
      type: "email",
      account: email,
      password: "front-pass-1",
      re_password: "front-pass-1",
      sms_code: "000000",
    });
    // on the field the backend names, in its words
    expect(result).toMatchObject({ ok: false, errors: { sms_code: expect.stringMatching(/^errors\.upstream_refused\|.+/) } });
    expect(await backendUserByEmail(email)).toBeNull();
  });

  it("the answer is lost on its way back: the outcome is unknown, and the registration is not sent again", async () => {
    const email = uniqueEmail("front-register");
    await sendRegisterCode(await frontContext(), { type: "email", account: email });
    const code = (await latestCode(email))!;
    let sent = 0;
    const lostAnswer: typeof fetch = async (input, init) => {
      sent += 1;
      await backend(input, init); // the backend does it…
      throw new TypeError("connection reset"); // …and its answer never arrives
    };
    const result = await register(await frontContext(null, lostAnswer), {
      type: "email",
      account: email,
      password: "front-pass-1",
      re_password: "front-pass-1",
      sms_code: code,
    });
    expect(result).toMatchObject({ ok: false, status: 503, errors: { form: "errors.outcome_unknown" } });
    expect(sent).toBe(1);
    // it was done: the user can sign in
    expect(await backendUserByEmail(email)).not.toBeNull();
    expect((await login(await frontContext(), { account: email, password: "front-pass-1" })).ok).toBe(true);
  });

  it("the areas of the mobile form are the backend's", async () => {
    const own = await areaList(await createServiceContext(env, { lang: "en" }));
    expect((await areaList(await frontContext())).map((a) => [a.id, a.global_code])).toEqual(own.map((a) => [a.id, a.global_code]));
  });
});

describe("forgotten password through the backend", () => {
  it("the backend's code sets the backend's password; the old one no longer signs in", async () => {
    const user = await createUser({ password: "front-pass-1" });
    expect(await sendResetCode(await frontContext(), { account: user.email! })).toMatchObject({ ok: true });
    const code = (await latestCode(user.email!))!;
    const reset = await resetPassword(await frontContext(), {
      account: user.email!,
      auth_code: code,
      password: "front-pass-2",
      re_password: "front-pass-2",
    });
    expect(reset).toEqual({ ok: true, value: null });
    expect((await login(await frontContext(), { account: user.email!, password: "front-pass-1" })).ok).toBe(false);
    expect((await login(await frontContext(), { account: user.email!, password: "front-pass-2" })).ok).toBe(true);
  });
});
