import { describe, expect, it } from "vitest";
import { isAbortError } from "~/lib/abort";

describe("interrupted navigations", () => {
  it("an aborted request is recognised (the browser's DOMException and errors named AbortError), other errors are not", () => {
    const controller = new AbortController();
    controller.abort();
    expect(isAbortError(controller.signal.reason)).toBe(true);
    expect(isAbortError(Object.assign(new Error("aborted"), { name: "AbortError" }))).toBe(true);
    for (const other of [new Error("boom"), new TypeError("Failed to fetch"), null, undefined, "AbortError", { status: 500 }])
      expect(isAbortError(other)).toBe(false);
  });
});
