import { describe, expect, it } from "vitest";
import { safeRedirect } from "../../app/lib/forms.server";
import { base64url, fromBase64url } from "../../worker/domain/shared/crypto";

describe("safeRedirect", () => {
  it.each([
    ["/home", "/home"],
    ["/post/12?x=1", "/post/12?x=1"],
    ["//evil.example", "/home"],
    ["/\\evil.example", "/home"],
    ["https://evil.example", "/home"],
    ["javascript:alert(1)", "/home"],
    [null, "/home"],
  ])("%j goes to %j", (target, expected) => {
    expect(safeRedirect(target)).toBe(expected);
  });
});

describe("base64url", () => {
  it("round-trips any bytes and refuses foreign characters", () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) % 256);
    expect(fromBase64url(base64url(bytes))).toEqual(bytes);
    expect(base64url(bytes)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(fromBase64url("abc+/")).toBeNull();
  });
});
