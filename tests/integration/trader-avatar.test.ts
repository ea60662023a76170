// A trader's picture (issue 11 §1: "avatar or default image"): the trader chooses a photo on
// my-follower (a plain multipart POST, as without JavaScript, or an upload made ahead), it shows on
// the ranking, and /follow/avatar/:id serves it to everyone — but only a picture a trader chose,
// never another upload, and no longer once removed.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN, cookiesFrom, createUser, get, sessionFor, signedSessionCookie, visibleText } from "./helpers";

const JPEG = () =>
  new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...Array(200).fill(7), 0xff, 0xd9]);

async function cookieOf(userId: number) {
  return signedSessionCookie(await sessionFor(userId));
}
async function aTrader() {
  const user = await createUser();
  await env.DB.batch([
    env.DB.prepare("UPDATE users SET is_trader = 1 WHERE id = ?1").bind(user.id),
    env.DB.prepare("INSERT INTO traders (user_id, nickname, status, approved_at) VALUES (?1, ?2, 1, ?3)").bind(
      user.id,
      `pic-${user.id}`,
      Date.now(),
    ),
  ]);
  return { ...user, cookie: await cookieOf(user.id) };
}
function post(cookie: string, fields: Record<string, string | Blob>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (v instanceof Blob) fd.append(k, v, "photo.jpg");
    else fd.append(k, v);
  }
  return SELF.fetch(`${ORIGIN}/follow/my-follower`, {
    method: "POST",
    body: fd,
    redirect: "manual",
    headers: { host: "localhost", cookie, origin: ORIGIN, "accept-language": "en" },
  });
}
async function uploadAhead(cookie: string, purpose: string) {
  const fd = new FormData();
  fd.append("file", new Blob([JPEG()], { type: "image/jpeg" }), "photo.jpg");
  const res = await SELF.fetch(`${ORIGIN}/api/common/image_upload?purpose=${purpose}`, {
    method: "POST",
    body: fd,
    headers: { host: "localhost", cookie, origin: ORIGIN },
  });
  return ((await res.json()) as { data: { id: string } }).data.id;
}
const avatarOf = async (id: number) =>
  (await env.DB.prepare("SELECT avatar FROM traders WHERE user_id = ?1").bind(id).first<{ avatar: string | null }>())!.avatar;

describe("a trader's picture", () => {
  it("chosen without JavaScript (multipart): saved, shown on the ranking and served publicly with a long cache; removed: the initial again and the picture 404", async () => {
    const trader = await aTrader();
    const saved = await post(trader.cookie, { intent: "set-avatar", avatar: new Blob([JPEG()], { type: "image/jpeg" }) });
    expect(saved.status).toBe(302);
    const url = await avatarOf(trader.id);
    expect(url).toMatch(/^\/follow\/avatar\/[0-9a-f-]{36}$/);
    expect(visibleText(await (await get(saved.headers.get("location")!, { cookie: cookiesFrom(saved, trader.cookie) })).text())).toContain(
      "Your picture is saved.",
    );
    const rank = await (await get("/rank")).text();
    expect(rank).toContain(`src="${url}"`);
    for (const cookie of [undefined, trader.cookie]) {
      const res = await get(url!, cookie ? { cookie } : {});
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/jpeg");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(JPEG());
    }
    expect((await post(trader.cookie, { intent: "remove-avatar" })).status).toBe(302);
    expect(await avatarOf(trader.id)).toBeNull();
    expect((await get(url!)).status).toBe(404);
  });

  it("an upload made ahead (with JavaScript) of the avatar purpose works; another purpose, another user's picture or a non-trader are refused and change nothing", async () => {
    const trader = await aTrader();
    const ahead = await uploadAhead(trader.cookie, "avatar");
    expect((await post(trader.cookie, { intent: "set-avatar", avatar: ahead })).status).toBe(302);
    expect(await avatarOf(trader.id)).toBe(`/follow/avatar/${ahead}`);

    // an identity photo is not a picture to show, even the trader's own
    const identity = await uploadAhead(trader.cookie, "identity");
    const refused = await post(trader.cookie, { intent: "set-avatar", avatar: identity });
    expect(refused.status).toBe(400);
    expect(visibleText(await refused.text())).toContain("Choose a photo.");
    expect(await avatarOf(trader.id)).toBe(`/follow/avatar/${ahead}`);
    expect((await get(`/follow/avatar/${identity}`)).status).toBe(404);

    // another trader cannot take someone else's picture by its id
    const other = await aTrader();
    expect((await post(other.cookie, { intent: "set-avatar", avatar: ahead })).status).toBe(400);
    expect(await avatarOf(other.id)).toBeNull();

    // a user who is not a trader has nothing to set: sent to the application guide, and their
    // avatar upload never becomes public
    const plain = await createUser();
    const plainCookie = await cookieOf(plain.id);
    const mine = await uploadAhead(plainCookie, "avatar");
    const notTrader = await post(plainCookie, { intent: "set-avatar", avatar: mine });
    expect(notTrader.status).toBe(302);
    expect(notTrader.headers.get("location")).toBe("/follow/trader-apply");
    expect((await get(`/follow/avatar/${mine}`)).status).toBe(404);
    for (const bad of ["nope", "00000000-0000-4000-8000-000000000000", "%3Cscript%3E"])
      expect((await get(`/follow/avatar/${bad}`)).status, bad).toBe(404);
  });
});
