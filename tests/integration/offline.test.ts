// The offline page (issue 22) through the real Worker: what the service worker keeps for every
// language and shows when a page cannot load. It holds nothing of the visitor and may be cached.
import { describe, expect, it } from "vitest";
import { createUser, get, sessionFor, signedSessionCookie, visibleText } from "./helpers";

async function signedIn() {
  const user = await createUser();
  return { user, cookie: await signedSessionCookie(await sessionFor(user.id)) };
}

describe("offline page", () => {
  it("is in the language it names, public, without scripts and without anything of a signed-in visitor", async () => {
    const { user, cookie } = await signedIn();
    // the same visitor's home page holds their uid and e-mail (in its data), so the check below can see them
    const home = await (await get("/", { cookie })).text();
    expect(home).toContain(user.uid);
    expect(home).toContain(user.email!);

    const response = await get("/offline?lng=de", { cookie, headers: { "accept-language": "fr" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=600");
    expect(response.headers.get("set-cookie")).toBeNull();
    const html = await response.text();
    expect(html).toMatch(/<html lang="de" dir="ltr"/);
    expect(html).toContain("<title>Sie sind offline · Bourse</title>");
    const text = visibleText(html);
    expect(text).toContain("Sie sind offline");
    expect(text).toContain("Kurse und Ihr Konto werden wieder angezeigt, sobald die Verbindung zurück ist.");
    expect(html).toMatch(/<a class="button primary" href="\/">Erneut versuchen<\/a>/);
    expect(html).not.toContain("<script");
    expect(html).not.toContain(user.uid);
    expect(html).not.toContain(user.email!);

    // an anonymous visitor gets the same page (the nonce of the response aside)
    const anonymous = await (await get("/offline?lng=de")).text();
    const withoutNonce = (page: string) => page.replace(/nonce="[^"]*"/g, "");
    expect(withoutNonce(anonymous)).toBe(withoutNonce(html));
  });

  it("reads right to left in Arabic", async () => {
    const response = await get("/offline?lng=ar");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<html lang="ar" dir="rtl"/);
    expect(visibleText(html)).toContain("أنت غير متصل بالإنترنت");
  });

  it("without a language of its own, sends the visitor to the page of theirs (not kept by any cache)", async () => {
    const response = await get("/offline", { headers: { "accept-language": "ja" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/offline?lng=jp");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });
});
