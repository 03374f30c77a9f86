import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const en = JSON.parse(readFileSync("app/locales/en.json", "utf8")) as Record<string, string>;

describe("translations", () => {
  it("en.json holds exactly the keys the code uses", () => {
    expect(() => execFileSync("node", ["scripts/i18n-keys.mjs"], { stdio: "pipe" })).not.toThrow();
  });

  for (const file of readdirSync("app/locales").filter((f) => f !== "en.json")) {
    it(`${file} has every key of en.json, each translated with the same placeholders`, () => {
      const locale = JSON.parse(readFileSync(`app/locales/${file}`, "utf8")) as Record<string, string>;
      expect(Object.keys(locale).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(locale)) {
        expect(text.trim(), key).not.toBe("");
        const placeholders = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
        expect(placeholders(text), key).toEqual(placeholders(key));
      }
    });
  }
});
