import { describe, expect, it } from "vitest";
import { baseURL } from "./support";

const PAGES = ["/", "/login", "/login/withToken?token=abc", "/signup", "/logout", "/forgot-password", "/reset-password/abc", "/email/verify", "/email/verify/1/abc", "/email/verify-change-email?id=1", "/home", "/demo_nobody", "/dev/mailbox"];
const BODIES: [string, string][] = [
  ["multipart/form-data; boundary=zz", "not multipart at all"],
  ["application/x-www-form-urlencoded", "login=%E0%A4%A&password=" + "x".repeat(5000)],
  ["application/json", '{"broken":'],
  ["text/plain", "hello"],
];

describe("pages never answer 5xx to bad input", () => {
  it("GET with malformed query strings and paths", async () => {
    for (const path of [...PAGES, "/%E0%A4%A", "/login?redirectTo=%E0", "/media/%E0%A4%A", "/a/b/c/d", "/login.data", "/x.data?_data=%ZZ"]) {
      const response = await fetch(`${baseURL()}${path}`, { redirect: "manual" });
      expect(response.status, path).toBeLessThan(500);
    }
  });

  it("POST of every kind of junk body to every page", async () => {
    for (const path of PAGES) {
      for (const [type, body] of BODIES) {
        const response = await fetch(`${baseURL()}${path}`, { method: "POST", headers: { "Content-Type": type }, body, redirect: "manual" });
        expect(response.status, `${path} ${type}`).toBeLessThan(500);
      }
    }
  });
});
