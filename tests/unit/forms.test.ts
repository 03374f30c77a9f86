import { describe, expect, it } from "vitest";
import { base64url, fromBase64url } from "../../worker/domain/shared/crypto";

describe("base64url", () => {
  it("round-trips any bytes and refuses foreign characters", () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) % 256);
    expect(fromBase64url(base64url(bytes))).toEqual(bytes);
    expect(base64url(bytes)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(fromBase64url("abc+/")).toBeNull();
  });
});
