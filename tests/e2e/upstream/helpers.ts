// The upstream e2e journeys' way to the backend (the platform instance): its §7 calls, as an
// existing app would make them, to create and fund users and to read their figures there.
import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { codeFromOutbox, expect, login, PASSWORD, uniqueEmail } from "../fixtures";

const backendUrl = process.env.E2E_BASE_URL ?? "http://localhost:8799";

export async function backend(): Promise<APIRequestContext> {
  return playwrightRequest.newContext({ baseURL: backendUrl, extraHTTPHeaders: { "accept-language": "en" } });
}

/** A user of the backend (registered through its §7 calls, as an existing app would), with money. */
export async function backendUser(api: APIRequestContext, amount: string) {
  const email = uniqueEmail("upstream");
  expect((await api.post("/api/notify/send_email", { form: { to: email, type: 1 } })).ok()).toBe(true);
  const code = await codeFromOutbox(api, email);
  const registered = await api.post("/api/user/register", {
    data: { type: "email", account: email, password: PASSWORD, re_password: PASSWORD, sms_code: code },
  });
  expect(((await registered.json()) as { code: number }).code).toBe(1);
  expect((await api.post("/dev/credit", { data: { email, amount } })).ok()).toBe(true);
  return email;
}

/** The backend's own figures for a user (its §7 getBalance, signed in there as the user). */
export async function backendBalances(api: APIRequestContext, email: string, password = PASSWORD) {
  const signedIn = await api.post("/api/user/loginForU", { form: { account: email, password } });
  const { data } = (await signedIn.json()) as { data: { token: string } };
  const answer = await api.get(`/v2/api/main/wallet/getBalance?t=${Date.now()}`, { headers: { authorization: data.token } });
  const { data: b } = (await answer.json()) as { data: { list: { type: string; balance: string }[] } };
  return Object.fromEntries(b.list.map((a) => [a.type, a.balance]));
}

/** Signs in on the front end and waits for the home page: the session cookie is set before the next navigation. */
export async function signIn(page: Page, email: string, password = PASSWORD) {
  await login(page, email, password);
  await expect(page).toHaveURL(/:\d+\/$/);
}
