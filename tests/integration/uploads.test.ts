// Private uploads through the real Worker into R2: type from content, size limits counted as the
// bytes arrive, an atomic daily quota, and files served only to their owner and operators.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES, UPLOAD_QUOTA } from "~/services/uploads.server";
import { ORIGIN, createUser, get, sessionFor, signedSessionCookie } from "./helpers";

const JPEG = () => bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...Array(200).fill(7), 0xff, 0xd9]);
const PNG = (padding = 200) =>
  bytes([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    0,
    0,
    0,
    13,
    0x49,
    0x48,
    0x44,
    0x52,
    ...Array(padding).fill(1),
    0,
    0,
    0,
    0,
    0x49,
    0x45,
    0x4e,
    0x44,
    0xae,
    0x42,
    0x60,
    0x82,
  ]);
function WEBP() {
  const body = [0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x20, ...Array(100).fill(3)];
  const size = body.length;
  return bytes([0x52, 0x49, 0x46, 0x46, size & 0xff, (size >> 8) & 0xff, 0, 0, ...body]);
}
function bytes(list: number[]) {
  return new Uint8Array(list);
}

async function userCookie(role: "user" | "operator" = "user") {
  const user = await createUser();
  if (role === "operator") await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(user.id).run();
  return { user, cookie: await signedSessionCookie(await sessionFor(user.id)) };
}

function upload(cookie: string, content: Uint8Array<ArrayBuffer> | Blob, filename = "photo.jpg", type = "image/jpeg") {
  const fd = new FormData();
  fd.append("file", content instanceof Blob ? content : new Blob([content], { type }), filename);
  return SELF.fetch(`${ORIGIN}/api/common/image_upload`, {
    method: "POST",
    body: fd,
    headers: { cookie, origin: ORIGIN, "accept-language": "en" },
  });
}

async function answer(res: Response) {
  return (await res.json()) as { code: number; msg: string; data: { url?: string; id?: string; errors?: Record<string, string> } | null };
}

describe("uploads", () => {
  it("accepts JPEG, PNG and WebP by their content and serves them to their owner only, as the sniffed type, never cached", async () => {
    const owner = await userCookie();
    for (const [content, type] of [
      [JPEG(), "image/jpeg"],
      [PNG(), "image/png"],
      [WEBP(), "image/webp"],
    ] as const) {
      // the declared type and the name are ignored: the content decides
      const res = await upload(owner.cookie, content, "whatever.bin", "application/octet-stream");
      const body = await answer(res);
      expect(body.code, body.msg).toBe(1);
      expect(body.data!.url).toMatch(/^\/uploads\/[0-9a-f-]{36}$/);
      const served = await get(body.data!.url!, { cookie: owner.cookie });
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe(type);
      expect(served.headers.get("cache-control")).toContain("no-store");
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.headers.get("content-security-policy")).toContain("sandbox");
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(content);
    }
  });

  it("another user, a visitor and a made-up id get 404; an operator sees the file", async () => {
    const owner = await userCookie();
    const { data } = await answer(await upload(owner.cookie, JPEG()));
    const other = await userCookie();
    const operator = await userCookie("operator");
    expect((await get(data!.url!, { cookie: other.cookie })).status).toBe(404);
    expect((await get(data!.url!)).status).toBe(404);
    expect((await get(`/uploads/${crypto.randomUUID()}`, { cookie: owner.cookie })).status).toBe(404);
    expect((await get("/uploads/..%2F..%2Fetc", { cookie: owner.cookie })).status).toBe(404);
    expect((await get(data!.url!, { cookie: operator.cookie })).status).toBe(200);
  });

  it("refuses text, a renamed executable, an SVG, an empty file and polyglots (an image with something appended); nothing is stored", async () => {
    const { user, cookie } = await userCookie();
    const elf = bytes([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...Array(100).fill(0)]);
    const exe = bytes([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, ...Array(100).fill(0)]);
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = new TextEncoder().encode("<!doctype html><script>alert(1)</script>");
    const jpegThenZip = bytes([...JPEG(), 0x50, 0x4b, 0x03, 0x04, ...Array(40).fill(0)]);
    const pngThenHtml = bytes([...PNG(), ...new TextEncoder().encode("<script>alert(1)</script>")]);
    const webpWrongLength = (() => {
      const w = WEBP();
      return bytes([...w, 1, 2, 3, 4]);
    })();
    for (const [content, name, expected] of [
      [elf, "photo.jpg", "JPEG, PNG or WebP"],
      [exe, "id-card.png", "JPEG, PNG or WebP"],
      [svg, "x.svg", "JPEG, PNG or WebP"],
      [html, "x.jpg", "JPEG, PNG or WebP"],
      [new Uint8Array(0), "x.jpg", "empty"],
      [jpegThenZip, "x.jpg", "JPEG, PNG or WebP"],
      [pngThenHtml, "x.png", "JPEG, PNG or WebP"],
      [webpWrongLength, "x.webp", "JPEG, PNG or WebP"],
    ] as const) {
      const body = await answer(await upload(cookie, content, name, "image/jpeg"));
      expect(body.code, name).toBe(0);
      expect(body.msg).toContain(expected);
    }
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM uploads WHERE user_id = ?1 AND status = 1")
      .bind(user.id)
      .first<{ n: number }>();
    expect(stored!.n).toBe(0);
    const objects = await env.UPLOADS.list({ prefix: `u/${user.id}/` });
    expect(objects.objects).toHaveLength(0);
  });

  it("streams a 9 MB photo to R2 in parts and refuses one byte over 10 MB without keeping anything", async () => {
    const { user, cookie } = await userCookie();
    const big = PNG(9 * 1024 * 1024);
    const ok = await answer(await upload(cookie, big, "big.png", "image/png"));
    expect(ok.code, ok.msg).toBe(1);
    const head = await env.UPLOADS.head(`u/${user.id}/${ok.data!.id}`);
    expect(head?.size).toBe(big.byteLength);
    const tooBig = PNG(MAX_UPLOAD_BYTES - 28 + 1);
    expect(tooBig.byteLength).toBe(MAX_UPLOAD_BYTES + 1);
    const refused = await answer(await upload(cookie, tooBig, "huge.png", "image/png"));
    expect(refused.code).toBe(0);
    expect(refused.msg).toContain("10 MB");
    const objects = await env.UPLOADS.list({ prefix: `u/${user.id}/` });
    expect(objects.objects.map((o) => o.key)).toEqual([`u/${user.id}/${ok.data!.id}`]);
  });

  it(`a burst of ${UPLOAD_QUOTA.perDay + 20} parallel uploads stores at most ${UPLOAD_QUOTA.perDay} (the daily quota is reserved before the bytes)`, async () => {
    const { user, cookie } = await userCookie();
    const results = await Promise.all(Array.from({ length: UPLOAD_QUOTA.perDay + 20 }, () => upload(cookie, JPEG()).then(answer)));
    const accepted = results.filter((r) => r.code === 1).length;
    expect(accepted).toBe(UPLOAD_QUOTA.perDay);
    expect(results.filter((r) => r.code === 0).every((r) => r.msg.includes("too many files"))).toBe(true);
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM uploads WHERE user_id = ?1 AND status = 1")
      .bind(user.id)
      .first<{ n: number }>();
    expect(stored!.n).toBe(UPLOAD_QUOTA.perDay);
  });

  it("a success means a stored file: a text field, a JSON body, another user's id and an empty file part are refused with a message, nothing stored; the id answered is always the stored upload's own", async () => {
    const other = await userCookie();
    const theirs = await answer(await upload(other.cookie, JPEG()));
    expect(theirs.code).toBe(1);
    const { user, cookie } = await userCookie();
    const post = (body: BodyInit, type?: string) =>
      SELF.fetch(`${ORIGIN}/api/common/image_upload`, {
        method: "POST",
        body,
        headers: { cookie, origin: ORIGIN, lang: "en", ...(type ? { "content-type": type } : {}) },
      });
    const textField = new FormData();
    textField.append("file", "../../etc/passwd");
    const theirId = new FormData();
    theirId.append("file", theirs.data!.id!);
    const theirUrl = new FormData();
    theirUrl.append("file", theirs.data!.url!);
    const noName = new FormData();
    noName.append("file", new Blob([]), "");
    const cases: [string, Promise<Response>][] = [
      ["multipart text field", post(textField)],
      ["urlencoded field", post("file=..%2F..%2Fetc%2Fpasswd", "application/x-www-form-urlencoded")],
      ["JSON body", post(JSON.stringify({ file: "../../etc/passwd" }), "application/json")],
      ["another user's id", post(theirId)],
      ["another user's url", post(theirUrl)],
      ["a JSON body with another user's id", post(JSON.stringify({ file: theirs.data!.id }), "application/json")],
      ["an empty file input", post(noName)],
      ["an empty file", upload(cookie, new Uint8Array(0))],
    ];
    for (const [name, pending] of cases) {
      const body = await answer(await pending);
      expect(body.code, name).toBe(0);
      expect(body.msg, name).toMatch(/Choose a photo|empty/);
      expect(JSON.stringify(body.data), name).not.toContain("passwd");
      expect(JSON.stringify(body.data), name).not.toContain(theirs.data!.id!);
    }
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM uploads WHERE user_id = ?1 AND status = 1")
      .bind(user.id)
      .first<{ n: number }>();
    expect(stored!.n).toBe(0);
    expect((await env.UPLOADS.list({ prefix: `u/${user.id}/` })).objects).toHaveLength(0);

    // a text field next to a real file: the answer names the file just stored, never the text
    const mixed = new FormData();
    mixed.append("file", theirs.data!.id!);
    mixed.append("file", new Blob([JPEG()], { type: "image/jpeg" }), "photo.jpg");
    const real = await answer(await post(mixed));
    expect(real.code, real.msg).toBe(1);
    const row = await env.DB.prepare("SELECT id FROM uploads WHERE user_id = ?1 AND status = 1").bind(user.id).first<{ id: string }>();
    expect(real.data).toEqual({ id: row!.id, url: `/uploads/${row!.id}` });
    expect((await get(real.data!.url!, { cookie })).status).toBe(200);
  });

  it("needs a session, and refuses a cross-site post", async () => {
    const fd = new FormData();
    fd.append("file", new Blob([JPEG()]), "a.jpg");
    const anonymous = await answer(
      await SELF.fetch(`${ORIGIN}/api/common/image_upload`, { method: "POST", body: fd, headers: { origin: ORIGIN } }),
    );
    expect(anonymous.code).toBe(999);
    const { cookie } = await userCookie();
    const fd2 = new FormData();
    fd2.append("file", new Blob([JPEG()]), "a.jpg");
    const cross = await SELF.fetch(`${ORIGIN}/api/common/image_upload`, {
      method: "POST",
      body: fd2,
      headers: { cookie, origin: "https://evil.example" },
    });
    expect(cross.status).toBe(403);
  });
});
