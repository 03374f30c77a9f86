import type { TFunction } from "i18next";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../app/lib/api";
import { failureText } from "../../app/lib/failure-text";

const t = ((key: string) => `[${key}]`) as unknown as TFunction;

describe("failureText: what a failed request says beside its button", () => {
  it("the server's message when it answered", () => {
    expect(failureText(t, new ApiError(404, { message: "This comment does not exist.", errors: {} }))).toBe(
      "This comment does not exist.",
    );
  });

  it("that the device is offline when the request never reached the server", () => {
    expect(failureText(t, new TypeError("Failed to fetch"))).toBe("[You are offline]");
    expect(failureText(t, new DOMException("gave up", "TimeoutError"))).toBe("[You are offline]");
  });

  it("something went wrong otherwise", () => {
    expect(failureText(t, new Error("boom"))).toBe("[Something went wrong]");
  });
});
