import { describe, expect, it } from "vitest";
import { safeLocalPath } from "../../shared/local-path";

describe("safeLocalPath: where a redirect parameter may send a person", () => {
  it.each([
    "/home",
    "/",
    "/post/12?x=1",
    "/mia.rivers",
    "/messages/3?view=media#last",
    "/search?q=caf%C3%A9",
    "/%09/x",
  ])("keeps the local path %j", (path) => {
    expect(safeLocalPath(path)).toBe(path);
  });

  it.each([
    ["another origin", "https://evil.example"],
    ["a protocol-relative URL", "//evil.example"],
    ["a backslash the parser reads as a slash", "/\\evil.example"],
    ["a tab the parser drops", "/\t/evil.example"],
    ["a line feed", "/\n/x"],
    ["a carriage return", "/\r/x"],
    ["a NUL", "/\u0000/x"],
    ["a leading space", " /home"],
    ["a script URL", "javascript:alert(1)"],
    ["a relative path", "home"],
    ["a character the parser would encode", "/café"],
    ["an empty string", ""],
    ["a path too long for a link", `/${"a".repeat(2048)}`],
    ["nothing", null],
    ["not text", 42],
  ])("sends %s to /home", (_case, value) => {
    expect(safeLocalPath(value)).toBe("/home");
  });

  it("uses the fallback it is given", () => {
    expect(safeLocalPath("//evil.example", "/settings")).toBe("/settings");
  });
});
