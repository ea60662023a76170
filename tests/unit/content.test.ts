// Pure rules of the content screens: stored bodies become text, ids are read strictly, the
// chat setting decides the target, and the old '#/register' links map to a same-site path.
import { describe, expect, it } from "vitest";
import { chatTarget, inviteLink, legacyHashPath, parseId, parsePage, plainSummary, textParagraphs } from "~/domain/content";

describe("textParagraphs", () => {
  it("splits plain text on blank lines", () => {
    expect(textParagraphs("One\n\nTwo\nstill two\r\n\r\n\n Three ")).toEqual(["One", "Two\nstill two", "Three"]);
  });
  it("turns the markup subset into paragraphs and drops everything executable", () => {
    expect(textParagraphs("<h2>Title</h2><p>A <b>bold</b> line<br>next</p><ul><li>x</li></ul>")).toEqual([
      "Title",
      "A bold line\nnext",
      "x",
    ]);
    expect(
      textParagraphs('<script>alert(1)</script><style>p{}</style><img src=x onerror=alert(1)>ok<iframe src="//evil"></iframe>'),
    ).toEqual(["ok"]);
    // Nested tricks end as text (it is rendered escaped): no tag survives.
    expect(textParagraphs("<scr<script></script>ipt>alert(1)</script>")).toEqual(["alert(1)"]);
    expect(textParagraphs("unclosed <script>alert(1)")).toEqual(["unclosed"]);
  });
  it("decodes entities into text (rendered escaped later), rejecting invalid code points", () => {
    expect(textParagraphs("a &amp; b &lt;script&gt; &#x41;&#66; &#xD800; &bogus;")).toEqual(["a & b <script> AB &bogus;"]);
  });
  it("summaries are one line, cut with an ellipsis", () => {
    expect(plainSummary("<p>one</p><p>two</p>")).toBe("one two");
    expect(plainSummary("x".repeat(200), 10)).toBe("xxxxxxxxx…");
  });
});

describe("ids and pages", () => {
  it("accepts only positive integers as ids", () => {
    expect(parseId("42")).toBe(42);
    for (const bad of [null, "", "0", "-1", "1.5", "1e3", "0x10", " 1", "1 OR 1=1", "<script>", "9999999999999"])
      expect(parseId(bad), String(bad)).toBeNull();
  });
  it("pages default to 1 and are capped", () => {
    expect(parsePage("3")).toBe(3);
    expect(parsePage("0")).toBe(1);
    expect(parsePage("abc")).toBe(1);
    expect(parsePage("999999")).toBe(10_000);
  });
});

describe("chatTarget", () => {
  const user = { uid: "12345678", email: "a@example.com" };
  it("type 2: a dialog with the link", () => {
    expect(chatTarget({ service_link: "https://t.me/x", service_link_type: 2 }, user)).toEqual({ kind: "dialog", link: "https://t.me/x" });
  });
  it("type 3: the http(s) link; anything else falls back to the frame page", () => {
    expect(chatTarget({ service_link: "https://help.example.com/", service_link_type: 3 }, user)).toEqual({
      kind: "navigate",
      link: "https://help.example.com/",
    });
    for (const link of ["javascript:alert(1)", "data:text/html,x", "//evil.example", "https://u:p@evil.example/", ""])
      expect(chatTarget({ service_link: link, service_link_type: 3 }, user), link).toEqual({ kind: "frame", src: null, origin: null });
  });
  it("otherwise: the frame told clientid and {uid, email}; visitors without identity", () => {
    const t = chatTarget({ service_link: "https://chat.example.com:8443/w?k=1", service_link_type: 1 }, user);
    expect(t.kind).toBe("frame");
    if (t.kind !== "frame") return;
    expect(t.origin).toBe("https://chat.example.com:8443");
    const url = new URL(t.src!);
    expect(url.searchParams.get("k")).toBe("1");
    expect(url.searchParams.get("clientid")).toBe("12345678");
    expect(JSON.parse(url.searchParams.get("metadata")!)).toEqual({ uid: "12345678", email: "a@example.com" });
    expect(chatTarget({ service_link: "https://chat.example.com/w", service_link_type: 0 }, null)).toEqual({
      kind: "frame",
      src: "https://chat.example.com/w",
      origin: "https://chat.example.com",
    });
  });
});

describe("invite links", () => {
  it("the new form, and the old '#/register' form mapped to a same-site path", () => {
    expect(inviteLink("https://bourse.example", "AB12")).toBe("https://bourse.example/register?invite_code=AB12");
    expect(legacyHashPath("#/register?invite_code=AB12")).toBe("/register?invite_code=AB12");
    expect(legacyHashPath("#/register")).toBe("/register");
    for (const h of ["", "#", "#/registerx", "#//evil.example/register", "#/login", "#register"]) expect(legacyHashPath(h), h).toBeNull();
  });
});
