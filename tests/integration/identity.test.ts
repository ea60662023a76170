// Real-name verification through the real Worker: the /mine/auth page posting multipart files
// (as a browser without JavaScript does), the JSON calls with pre-uploaded photos, the
// operator's queue deciding each submission exactly once, and nobody else seeing the photos.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN, createUser, form, formErrors, get, sessionFor, signedSessionCookie, visibleText } from "./helpers";

const JPEG = (fill = 7) =>
  new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, ...Array(200).fill(fill), 0xff, 0xd9]);
const TEXT = new TextEncoder().encode("this is my passport, honestly\n".repeat(4));
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');

type File = { content: Uint8Array<ArrayBuffer>; name?: string; type?: string };
type Answer<T = Record<string, unknown>> = { code: number; msg: string; data: (T & { errors?: Record<string, string> }) | null };

async function person(options: { role?: "user" | "operator"; isDemo?: boolean } = {}) {
  const user = await createUser({ isDemo: options.isDemo });
  if (options.role === "operator") await env.DB.prepare("UPDATE users SET role = 'operator' WHERE id = ?1").bind(user.id).run();
  return { user, cookie: await signedSessionCookie(await sessionFor(user.id)) };
}

/** The page's form posted as multipart with files, as a browser without JavaScript sends it. */
function submitPage(cookie: string, fields: Record<string, string>, files: Record<string, File | null> = {}) {
  const fd = new FormData();
  fd.append("intent", "real-name");
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  for (const [k, f] of Object.entries(files)) {
    // an input with no file chosen still sends its part, with an empty filename
    fd.append(
      k,
      f ? new Blob([f.content], { type: f.type ?? "image/jpeg" }) : new Blob([], { type: "application/octet-stream" }),
      f ? (f.name ?? "photo.jpg") : "",
    );
  }
  return SELF.fetch(`${ORIGIN}/mine/auth`, {
    method: "POST",
    body: fd,
    headers: { cookie, host: "localhost", origin: ORIGIN, "accept-language": "en" },
    redirect: "manual",
  });
}

const photos = (a = 1, b = 2): Record<string, File> => ({
  front_pic: { content: JPEG(a) },
  reverse_pic: { content: JPEG(b), name: "back.jpg" },
});

async function uploadPhoto(cookie: string, purpose = "identity", content = JPEG()) {
  const fd = new FormData();
  fd.append("file", new Blob([content], { type: "image/jpeg" }), "photo.jpg");
  const res = await SELF.fetch(`${ORIGIN}/api/common/image_upload?purpose=${purpose}`, {
    method: "POST",
    body: fd,
    headers: { cookie, origin: ORIGIN, "accept-language": "en" },
  });
  const body = (await res.json()) as Answer<{ id: string; url: string }>;
  expect(body.code, body.msg).toBe(1);
  return body.data!;
}

async function api<T = Record<string, unknown>>(path: string, cookie: string, fields?: Record<string, string>): Promise<Answer<T>> {
  const res = fields ? await form(path, fields, { cookie }) : await get(path, { cookie });
  expect(res.status).toBeLessThan(500);
  return (await res.json()) as Answer<T>;
}

const submitApi = (cookie: string, fields: Record<string, string>) => api("/api/user_real/real_name", cookie, fields);

async function row(userId: number) {
  return env.DB.prepare(
    "SELECT name, card_id AS cardId, front_upload_id AS front, reverse_upload_id AS reverse, review_status AS status, submission, reason FROM identity_verifications WHERE user_id = ?1",
  )
    .bind(userId)
    .first<{ name: string; cardId: string; front: string; reverse: string; status: number; submission: number; reason: string }>();
}

async function decisions(userId: number) {
  const { results } = await env.DB.prepare(
    "SELECT operator_id AS operatorId, step, decision, reason FROM operator_decisions WHERE subject = 'identity' AND subject_id = ?1 ORDER BY step",
  )
    .bind(String(userId))
    .all<{ operatorId: number; step: number; decision: string; reason: string }>();
  return results;
}

async function page(path: string, cookie: string) {
  const res = await get(path, { cookie });
  expect(res.status).toBe(200);
  return { html: await res.text(), res };
}

function decide(cookie: string, userId: number, submission: number, intent: "approve" | "reject", reason = "") {
  return form("/admin/identity", { id: `${userId}-${submission}`, intent, reason }, { cookie });
}

describe("real-name verification", () => {
  it("a user submits the page as multipart with two photos (no JavaScript) and then sees it waiting, read-only, with the number masked and both photos", async () => {
    const { user, cookie } = await person();
    const before = visibleText((await page("/mine/auth", cookie)).html);
    expect(before).toContain("ID or passport number");
    expect(visibleText((await page("/user", cookie)).html)).toContain("Not verified");

    const res = await submitPage(cookie, { name: "  Zoë  O'Brien-Łukasz ", card_id: "ab-1234567" }, photos());
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/mine/auth");
    const stored = await row(user.id);
    expect(stored).toMatchObject({ name: "Zoë O'Brien-Łukasz", cardId: "AB-1234567", status: 1, submission: 1 });

    const { html, res: shown } = await page("/mine/auth", cookie);
    expect(shown.headers.get("cache-control")).toContain("no-store");
    const text = visibleText(html);
    expect(text).toContain("Waiting for audit");
    expect(text).toContain("Zoë O'Brien-Łukasz");
    expect(text).toContain("AB******67");
    expect(html).not.toContain("AB-1234567");
    expect(html).not.toMatch(/<form[^>]*multipart/); // read-only: no form to submit again
    expect(html).toContain(`/uploads/${stored!.front}`);
    expect(html).toContain(`/uploads/${stored!.reverse}`);
    const image = await get(`/uploads/${stored!.front}`, { cookie });
    expect(image.status).toBe(200);
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(JPEG(1));
    expect(visibleText((await page("/user", cookie)).html)).toContain("Waiting for audit");
  });

  it("the JSON calls take pre-uploaded ids or their URLs; center answers the Auth info with private photo URLs; a second submit is refused", async () => {
    const { user, cookie } = await person();
    const empty = await api("/api/user_real/center", cookie);
    expect(empty).toMatchObject({ code: 1, data: { review_status: 0, name: "", front_pic: "" } });

    const front = await uploadPhoto(cookie);
    const back = await uploadPhoto(cookie);
    const sent = await submitApi(cookie, {
      name: "王小明",
      card_id: "e12345678",
      front_pic: `${ORIGIN}${front.url}`,
      reverse_pic: back.id,
    });
    expect(sent.code, sent.msg).toBe(1);
    expect(sent.msg).toContain("Submitted");
    const center = await api("/api/user_real/center", cookie);
    expect(center.data).toMatchObject({
      review_status: 1,
      name: "王小明",
      card_id: "E1*****78",
      front_pic: front.url,
      reverse_pic: back.url,
    });

    const again = await submitApi(cookie, { name: "王小明", card_id: "E12345678", front_pic: front.id, reverse_pic: back.id });
    expect(again.code).toBe(0);
    expect(again.msg).toBe("Your verification is already waiting for audit.");
    expect((await row(user.id))!.submission).toBe(1);
    // a GET that changes something must carry the token in its header, not only the cookie
    const forged = await get(`/api/user_real/real_name?name=Ann+Lee&card_id=P1234567&front_pic=${front.id}&reverse_pic=${back.id}`, {
      cookie,
    });
    expect(((await forged.json()) as Answer).code).toBe(999);
  });

  it("another user gets 404 for the first user's photos, and cannot submit the first user's upload ids (or a deposit proof) as their own", async () => {
    const first = await person();
    const front = await uploadPhoto(first.cookie);
    const back = await uploadPhoto(first.cookie);
    expect((await submitApi(first.cookie, { name: "Ann Lee", card_id: "P1234567", front_pic: front.id, reverse_pic: back.id })).code).toBe(
      1,
    );

    const second = await person();
    expect((await get(front.url, { cookie: second.cookie })).status).toBe(404);
    expect((await get(back.url, { cookie: second.cookie })).status).toBe(404);
    expect((await get(front.url)).status).toBe(404);

    const stolen = await submitApi(second.cookie, { name: "Bob Stone", card_id: "P7654321", front_pic: front.id, reverse_pic: back.url });
    expect(stolen.code).toBe(0);
    expect(stolen.data!.errors).toEqual({
      front_pic: "This photo can't be used. Please choose it again.",
      reverse_pic: "This photo can't be used. Please choose it again.",
    });
    // the page path too (the ids posted as plain fields, as the JavaScript form does)
    const viaPage = await submitPage(second.cookie, { name: "Bob Stone", card_id: "P7654321", front_pic: front.id, reverse_pic: back.id });
    expect(viaPage.status).toBe(400);
    expect(formErrors(await viaPage.text())).toContain("This photo can't be used");
    // an upload of another purpose, a made-up id, and the same photo twice
    const proof = await uploadPhoto(second.cookie, "deposit_proof");
    const own = await uploadPhoto(second.cookie);
    const wrongPurpose = await submitApi(second.cookie, {
      name: "Bob Stone",
      card_id: "P7654321",
      front_pic: proof.id,
      reverse_pic: crypto.randomUUID(),
    });
    expect(Object.keys(wrongPurpose.data!.errors!)).toEqual(["front_pic", "reverse_pic"]);
    const same = await submitApi(second.cookie, { name: "Bob Stone", card_id: "P7654321", front_pic: own.id, reverse_pic: own.id });
    expect(same.msg).toBe("The front and the back must be two different photos.");
    expect(await row(second.user.id)).toBeNull();
  });

  it("10 concurrent submissions (page and API) create one waiting request", async () => {
    const { user, cookie } = await person();
    const front = await uploadPhoto(cookie);
    const back = await uploadPhoto(cookie);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? submitApi(cookie, { name: `Ann Lee`, card_id: `P100000${i}`, front_pic: front.id, reverse_pic: back.id }).then(
              (a) => a.code === 1,
            )
          : submitPage(cookie, { name: "Ann Lee", card_id: `P100000${i}`, front_pic: front.id, reverse_pic: back.id }).then((r) => {
              expect(r.status).toBeLessThan(500);
              return r.status === 302;
            }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const { results: rows } = await env.DB.prepare(
      "SELECT review_status AS status, submission FROM identity_verifications WHERE user_id = ?1",
    )
      .bind(user.id)
      .all();
    expect(rows).toEqual([{ status: 1, submission: 1 }]);
  });

  it("20 parallel approve/reject posts decide once; the rejected user sees the reason, submits again (submission 2) and is approved", async () => {
    const { user, cookie } = await person();
    const operator = await person({ role: "operator" });
    const other = await person({ role: "operator" });
    expect((await submitPage(cookie, { name: "Ann Lee", card_id: "P1234567" }, photos())).status).toBe(302);

    // the queue shows the request with both photos, the full number and the user
    const queue = await page("/admin/identity", operator.cookie);
    const first = (await row(user.id))!;
    expect(visibleText(queue.html)).toContain("P1234567");
    expect(visibleText(queue.html)).toContain(user.uid);
    expect(queue.html).toContain(`/uploads/${first.front}`);
    expect(queue.html).toContain(`/uploads/${first.reverse}`);
    expect((await get(`/uploads/${first.front}`, { cookie: operator.cookie })).status).toBe(200);

    // rejecting needs a reason
    const noReason = await decide(operator.cookie, user.id, 1, "reject", "   ");
    expect(noReason.status).toBe(400);
    expect(visibleText(await noReason.text())).toContain("Give the reason for rejecting.");
    expect(await decisions(user.id)).toEqual([]);

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        decide(i % 2 ? operator.cookie : other.cookie, user.id, 1, i % 3 === 0 ? "approve" : "reject", "The photo of the back is blurry"),
      ),
    );
    expect(answers.every((r) => r.status === 302)).toBe(true);
    const decided = await decisions(user.id);
    expect(decided).toHaveLength(1);
    const status = (await row(user.id))!.status;
    expect(status).toBe(decided[0]!.decision === "approve" ? 2 : 3);

    if (decided[0]!.decision === "approve") {
      // the race went to an approval: this user is certified; a fresh user walks the rejection path
      expect(visibleText((await page("/mine/auth", cookie)).html)).toContain("Certified");
      return;
    }
    const rejected = visibleText((await page("/mine/auth", cookie)).html);
    expect(rejected).toContain("Your verification was rejected: The photo of the back is blurry");
    expect(rejected).toContain("Submit for review");
    expect(visibleText((await page("/user", cookie)).html)).toContain("Rejected");

    expect((await submitPage(cookie, { name: "Ann Lee", card_id: "P1234567" }, photos(3, 4))).status).toBe(302);
    expect(await row(user.id)).toMatchObject({ status: 1, submission: 2, reason: "" });
    // an operator's stale form for the first submission decides nothing
    await decide(operator.cookie, user.id, 1, "approve");
    expect((await row(user.id))!.status).toBe(1);
    const approved = await decide(operator.cookie, user.id, 2, "approve");
    expect(approved.status).toBe(302);
    expect(await decisions(user.id)).toMatchObject([
      { step: 1, decision: "reject", reason: "The photo of the back is blurry" },
      { step: 2, decision: "approve", operatorId: operator.user.id },
    ]);
    expect(visibleText((await page("/mine/auth", cookie)).html)).toContain("Certified");
    expect(visibleText((await page("/user", cookie)).html)).toContain("Certified");
    const history = visibleText((await page("/admin/identity", operator.cookie)).html);
    expect(history).toContain(`Decided by ${operator.user.email}`);
    // certified: no further submission
    const front = await uploadPhoto(cookie);
    const back = await uploadPhoto(cookie);
    const late = await submitApi(cookie, { name: "Ann Lee", card_id: "P1234567", front_pic: front.id, reverse_pic: back.id });
    expect(late.msg).toBe("Your identity is already certified.");
  });

  it("the rejection path end to end: reject with a reason, resubmit, approve", async () => {
    const { user, cookie } = await person();
    const operator = await person({ role: "operator" });
    expect((await submitPage(cookie, { name: "Maria José", card_id: "X-99-1234" }, photos())).status).toBe(302);
    expect((await decide(operator.cookie, user.id, 1, "reject", "Name does not match the document")).status).toBe(302);
    const center = await api("/api/user_real/center", cookie);
    expect(center.data).toMatchObject({ review_status: 3, reason: "Name does not match the document" });
    const front = await uploadPhoto(cookie);
    const back = await uploadPhoto(cookie);
    expect((await submitApi(cookie, { name: "María José", card_id: "X-99-1234", front_pic: front.id, reverse_pic: back.id })).code).toBe(1);
    expect(await row(user.id)).toMatchObject({ name: "María José", status: 1, submission: 2 });
    expect((await decide(operator.cookie, user.id, 2, "approve")).status).toBe(302);
    expect((await api("/api/user_real/center", cookie)).data).toMatchObject({ review_status: 2, reason: "" });
  });

  it("a decision batch whose status change matched nothing is undone whole (the guard after the update)", async () => {
    const { user, cookie } = await person();
    const operator = await person({ role: "operator" });
    expect((await submitPage(cookie, { name: "Ann Lee", card_id: "P1234567" }, photos())).status).toBe(302);
    // the same statements as the decision, for a submission that is not waiting: the decision row must not stay
    await expect(
      env.DB.batch([
        env.DB.prepare(
          "INSERT INTO operator_decisions (operator_id, subject, subject_id, step, decision, reason, created_at) VALUES (?1, 'identity', ?2, 7, 'approve', '', 0)",
        ).bind(operator.user.id, String(user.id)),
        env.DB.prepare(
          "UPDATE identity_verifications SET review_status = 2 WHERE user_id = ?1 AND review_status = 1 AND submission = 7",
        ).bind(user.id),
        env.DB.prepare("INSERT INTO session_guard (session_id) SELECT 'identity_not_waiting' WHERE changes() = 0"),
      ]),
    ).rejects.toThrow(/session_valid|CHECK/);
    expect(await decisions(user.id)).toEqual([]);
    // a forged submission number through the queue decides nothing either
    expect((await decide(operator.cookie, user.id, 7, "approve")).status).toBe(302);
    expect(await decisions(user.id)).toEqual([]);
    expect((await row(user.id))!.status).toBe(1);
  });

  it("bad input answers clearly next to the field and stores nothing (name, number, missing photo, a text file, an SVG)", async () => {
    const { user, cookie } = await person();
    const good = { name: "Ann Lee", card_id: "P1234567" };
    const cases: [Record<string, string>, Record<string, File | null>, string][] = [
      [{ ...good, name: "" }, photos(), "Please enter your real name."],
      [{ ...good, name: "   " }, photos(), "Please enter your real name."],
      [{ ...good, name: "A" }, photos(), "The name needs at least 2 characters."],
      [{ ...good, name: "A".repeat(61) }, photos(), "The name can have at most 60 characters."],
      [{ ...good, name: "Ann\u0007Lee" }, photos(), "This field contains characters that are not allowed."],
      [{ ...good, name: "Ann\nLee" }, photos(), "This field contains characters that are not allowed."],
      [{ ...good, name: "Ann Lee 2" }, photos(), "Use letters, spaces, dots, hyphens and apostrophes only."],
      [{ ...good, name: "<script>" }, photos(), "Use letters, spaces, dots, hyphens and apostrophes only."],
      [{ ...good, card_id: "" }, photos(), "Please enter your ID or passport number."],
      [{ ...good, card_id: "P12" }, photos(), "Enter 5 to 30 letters, digits or hyphens."],
      [{ ...good, card_id: "P1234 567" }, photos(), "Enter 5 to 30 letters, digits or hyphens."],
      [{ ...good, card_id: "P".repeat(31) }, photos(), "Enter 5 to 30 letters, digits or hyphens."],
      [good, { front_pic: { content: JPEG() }, reverse_pic: null }, "Choose a photo of the back of your document."],
      [good, { front_pic: null, reverse_pic: null }, "Choose a photo of the front of your document."],
      [
        good,
        { front_pic: { content: TEXT, name: "passport.jpg", type: "image/jpeg" }, reverse_pic: { content: JPEG() } },
        "Choose a photo (JPEG, PNG or WebP).",
      ],
      [
        good,
        { front_pic: { content: JPEG() }, reverse_pic: { content: SVG, name: "back.svg", type: "image/svg+xml" } },
        "Choose a photo (JPEG, PNG or WebP).",
      ],
      [good, { front_pic: { content: new Uint8Array(0), name: "empty.jpg" }, reverse_pic: { content: JPEG() } }, "The file is empty."],
    ];
    for (const [fields, files, message] of cases) {
      const res = await submitPage(cookie, fields, files);
      expect(res.status, message).toBe(400);
      const html = await res.text();
      expect(formErrors(html), JSON.stringify(fields)).toContain(message);
      if (fields.name && !/[\u0000-\u001f]/.test(fields.name))
        expect(html).toContain(`value="${fields.name.replace(/</g, "&lt;").replace(/>/g, "&gt;")}"`);
    }
    // the API answers the same, translated
    const api1 = await submitApi(cookie, { name: "Ann Lee", card_id: "P1234567" });
    expect(api1).toMatchObject({ code: 0, msg: "Choose a photo of the front of your document." });
    const api2 = await SELF.fetch(`${ORIGIN}/api/user_real/real_name`, {
      method: "POST",
      body: new URLSearchParams({ name: "", card_id: "x", front_pic: "a", reverse_pic: "b" }).toString(),
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", lang: "en" },
    });
    expect(((await api2.json()) as Answer).msg).toBe("Please enter your real name.");
    expect(await row(user.id)).toBeNull();
    // the refused files were not kept
    const kept = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM uploads WHERE user_id = ?1 AND status = 1 AND content_type NOT LIKE 'image/%'",
    )
      .bind(user.id)
      .first<{ n: number }>();
    expect(kept!.n).toBe(0);
  });

  it("without JavaScript, a refused form keeps its stored photos: shown again and posted again unless a new file is chosen", async () => {
    const { user, cookie } = await person();
    const first = await submitPage(cookie, { name: "Ann 2", card_id: "P1234567" }, photos(5, 6));
    expect(first.status).toBe(400);
    const html = await first.text();
    const kept = [...html.matchAll(/<input type="hidden" name="(front_pic|reverse_pic)" value="([0-9a-f-]{36})"/g)].map(
      (m) => [m[1], m[2]!] as const,
    );
    expect(kept.map(([n]) => n)).toEqual(["front_pic", "reverse_pic"]);
    for (const [, id] of kept) expect(html).toContain(`src="/uploads/${id}"`);
    // the browser posts each slot's file input (no file chosen) and then the kept id; a new back photo replaces the kept one
    const fd = new FormData();
    fd.append("intent", "real-name");
    fd.append("name", "Ann Lee");
    fd.append("card_id", "P1234567");
    fd.append("front_pic", new Blob([]), "");
    fd.append("front_pic", kept[0]![1]);
    fd.append("reverse_pic", new Blob([JPEG(9)], { type: "image/jpeg" }), "new-back.jpg");
    fd.append("reverse_pic", kept[1]![1]);
    const second = await SELF.fetch(`${ORIGIN}/mine/auth`, {
      method: "POST",
      body: fd,
      headers: { cookie, host: "localhost", origin: ORIGIN },
      redirect: "manual",
    });
    expect(second.status).toBe(302);
    const stored = (await row(user.id))!;
    expect(stored.front).toBe(kept[0]![1]);
    expect(stored.reverse).not.toBe(kept[1]![1]);
    expect(new Uint8Array(await (await get(`/uploads/${stored.reverse}`, { cookie })).arrayBuffer())).toEqual(JPEG(9));
  });

  it("demo users are refused ('only real account') on the page and the call", async () => {
    const demo = await person({ isDemo: true });
    const shown = await get("/mine/auth", { cookie: demo.cookie });
    expect(shown.status).toBe(302);
    expect(shown.headers.get("location")).toBe("/user");
    const posted = await submitPage(demo.cookie, { name: "Demo User", card_id: "P1234567" }, photos());
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe("/user");
    const front = await uploadPhoto(demo.cookie);
    const back = await uploadPhoto(demo.cookie);
    const call = await submitApi(demo.cookie, { name: "Demo User", card_id: "P1234567", front_pic: front.id, reverse_pic: back.id });
    expect(call.code).toBe(0);
    expect(call.msg).toContain("Only real account");
    expect(await row(demo.user.id)).toBeNull();
  });

  it("/admin/identity is 404 for a normal user and a visitor, and so is its action", async () => {
    const { user, cookie } = await person();
    expect((await submitPage(cookie, { name: "Ann Lee", card_id: "P1234567" }, photos())).status).toBe(302);
    expect((await get("/admin/identity", { cookie })).status).toBe(404);
    expect((await get("/admin/identity")).status).toBe(404);
    expect((await decide(cookie, user.id, 1, "approve")).status).toBe(404);
    expect((await form("/admin/identity", { id: `${user.id}-1`, intent: "approve" })).status).toBe(404);
    expect((await row(user.id))!.status).toBe(1);
    expect(await decisions(user.id)).toEqual([]);
    // the API needs a session
    expect((await api("/api/user_real/center", "")).code).toBe(999);
  });
});
