import { describe, expect, it } from "vitest";
import { baseURL, createAccount, fetchWithin } from "./support";

/**
 * Every redirect parameter of the pages (the sign-in's `redirectTo`, read by its loader and its
 * action, and the stories viewer's `back`) sends anything but a path of this site to /home, and never answers 5xx.
 * Plain requests, as an attacker sends them; the rule itself is tests/unit/local-path.test.ts.
 */
const ATTACKS = [
  "/%09/evil.example",
  "/%0A/x",
  "/%0D/x",
  "/%00/x",
  "//evil.example",
  "/%5Cevil.example",
  "https://evil.example",
  "%2F%2Fevil.example",
  "/%E0%A4%A",
];

const page = (path: string, init: RequestInit = {}) =>
  fetchWithin(`${baseURL()}${path}`, { redirect: "manual", ...init });
const withSession = (token: string): HeadersInit => ({ Cookie: `__Host-session=${token}` });

describe("redirect parameters", () => {
  it("signed in, /login?redirectTo= goes to a local path as it is, anything else to /home", async () => {
    const person = await createAccount();
    for (const target of ATTACKS) {
      const response = await page(`/login?redirectTo=${target}`, { headers: withSession(person.token) });
      expect(response.status, target).toBe(302);
      expect(response.headers.get("Location"), target).toBe("/home");
    }
    const local = await page(`/login?redirectTo=${encodeURIComponent("/settings?tab=privacy")}`, {
      headers: withSession(person.token),
    });
    expect(local.headers.get("Location")).toBe("/settings?tab=privacy");
  });

  it("signing in with the form goes to /home when redirectTo is not a local path", async () => {
    const person = await createAccount();
    // A body whose escapes are not UTF-8 is refused whole (tests/e2e/pages-bad-input.test.ts).
    for (const target of ATTACKS.filter((attack) => attack !== "/%E0%A4%A")) {
      const body = `login=${encodeURIComponent(person.username)}&password=${encodeURIComponent(person.password)}&intent=password&redirectTo=${target}`;
      const response = await page("/login.data", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body,
      });
      expect(response.status, target).toBe(200);
      const answer = await response.text();
      expect(answer, target).toContain('"redirectTo","/home"');
      expect(answer, target).not.toContain("evil");
    }
  });

  it("/stories?back= closes to a local path only", async () => {
    const person = await createAccount();
    for (const target of ATTACKS) {
      const response = await page(`/stories.data?back=${target}`, { headers: withSession(person.token) });
      expect(response.status, target).toBeLessThan(500);
      const answer = await response.text();
      expect(answer, target).toContain('"closeTo","/home"');
      expect(answer, target).not.toContain("evil");
    }
  });
});
