import { describe, expect, it } from "vitest";
import { buildSignUp } from "../support/people";
import { baseURL, fetchWithin } from "./support";

const PAGES = [
  "/",
  "/login",
  "/login/withToken?token=abc",
  "/signup",
  "/logout",
  "/forgot-password",
  "/reset-password/abc",
  "/email/verify",
  "/email/verify/1/abc",
  "/email/verify-change-email?id=1",
  "/home",
  "/demo_nobody",
  "/dev/mailbox",
  "/live/1/join",
  "/live/abc",
];
const BODIES: [string, string][] = [
  ["multipart/form-data; boundary=zz", "not multipart at all"],
  ["application/x-www-form-urlencoded", "login=%E0%A4%A&password=" + "x".repeat(5000)],
  ["application/json", '{"broken":'],
  ["text/plain", "hello"],
];

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});

describe("pages never answer 5xx to bad input", () => {
  it("GET with malformed query strings and paths", async () => {
    for (const path of [
      ...PAGES,
      "/%E0%A4%A",
      "/login?redirectTo=%E0",
      "/media/%E0%A4%A",
      "/a/b/c/d",
      "/login.data",
      "/x.data?_data=%ZZ",
    ]) {
      const response = await fetchWithin(`${baseURL()}${path}`, { redirect: "manual" });
      expect(response.status, path).toBeLessThan(500);
    }
  });

  it("POST of every kind of junk body to every page", async () => {
    for (const path of PAGES) {
      for (const [type, body] of BODIES) {
        const response = await fetchWithin(`${baseURL()}${path}`, {
          method: "POST",
          headers: { "Content-Type": type },
          body,
          redirect: "manual",
        });
        expect(response.status, `${path} ${type}`).toBeLessThan(500);
      }
    }
  });

  it("a control character in a form field says what the field allows (422), never a 500", async () => {
    const ONE_LINE = "This field may not contain control characters, tabs or line breaks.";
    const person = buildSignUp({ name: "Ann\u0000Lee" });
    const signUp = await fetchWithin(`${baseURL()}/signup`, form({ ...person }));
    expect(signUp.status).toBe(422);
    expect(await signUp.text()).toContain(ONE_LINE);
    const signIn = await fetchWithin(`${baseURL()}/login`, form({ login: person.email, password: "pass\u0000word" }));
    expect(signIn.status).toBe(422);
    expect(await signIn.text()).toContain(ONE_LINE);
  });

  it("a form whose escapes are not UTF-8 is refused, not stored with U+FFFD", async () => {
    const person = buildSignUp();
    const body = `${new URLSearchParams({ ...person, name: "Ann" }).toString()}%FF%FE`;
    const signUp = await fetchWithin(`${baseURL()}/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
      redirect: "manual",
    });
    expect(signUp.status).toBe(422);
    expect(await signUp.text()).toContain(
      "This text contains a character that is not valid Unicode. Please type it again.",
    );
    const nothingStored = await fetchWithin(`${baseURL()}/api/signup`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(person),
    });
    expect(nothingStored.status).toBe(201);
  });
});
