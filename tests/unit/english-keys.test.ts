import { readFileSync } from "node:fs";
import { expect, it } from "vitest";

// The browser never downloads en.json (app/i18n/client.ts): that is only right while every English text is its key.
it("every English text is its own key", () => {
  const en = JSON.parse(readFileSync("app/locales/en.json", "utf8")) as Record<string, string>;
  expect(Object.entries(en).filter(([key, text]) => key !== text)).toEqual([]);
});
