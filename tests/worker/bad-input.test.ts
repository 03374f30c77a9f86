import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, buildSignUp, createUser } from "./factories";

/** Every JSON endpoint, with a valid body to vary and whether it needs a session. */
const ENDPOINTS: { path: string; auth: boolean; valid: Record<string, unknown> }[] = [
  { path: "/signup", auth: false, valid: { ...buildSignUp() } },
  { path: "/login", auth: false, valid: { login: "someone@example.test", password: "a passphrase here" } },
  { path: "/email/verify", auth: false, valid: { id: 1, hash: "a".repeat(40), expires: Date.now() + 60_000, signature: "x".repeat(43) } },
  { path: "/email/change", auth: true, valid: { email: "new@example.test", password: "a passphrase here" } },
  { path: "/email/change/confirm", auth: false, valid: { id: 1, email: "new@example.test", from: "a".repeat(40), expires: Date.now() + 60_000, signature: "x".repeat(43) } },
  { path: "/login/magic-link", auth: false, valid: { email: "someone@example.test" } },
  { path: "/login/token", auth: false, valid: { token: "x".repeat(43) } },
  { path: "/password/forgot", auth: false, valid: { email: "someone@example.test" } },
  { path: "/password/reset", auth: false, valid: { token: "x".repeat(43), password: "a passphrase here", passwordConfirmation: "a passphrase here" } },
  { path: "/reports", auth: true, valid: { targetKind: "user", username: "someone", reason: "other", description: "Why" } },
  { path: "/creatorRequest", auth: true, valid: { documentMediaId: 1, selfieMediaId: 2 } },
  { path: "/me/password", auth: true, valid: { password: "a passphrase here", newPassword: "another passphrase", newPasswordConfirmation: "another passphrase" } },
];

const TABLES = ["users", "sessions", "one_time_tokens", "dev_mailbox", "rate_limits", "reports", "creator_requests"];

async function snapshot() {
  const counts: Record<string, number> = {};
  for (const table of TABLES) counts[table] = (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;
  const passwords = await env.DB.prepare("SELECT group_concat(password_hash || email || coalesce(email_verified_at, '')) AS all_rows FROM users").first<{ all_rows: string }>();
  return { counts, users: passwords?.all_rows };
}

function badBodies(valid: Record<string, unknown>): [string, string, string][] {
  const json = (value: unknown) => JSON.stringify(value);
  const cases: [string, string, string][] = [
    ["malformed JSON", "application/json", '{"oops": '],
    ["an array", "application/json", "[]"],
    ["null", "application/json", "null"],
    ["a number", "application/json", "42"],
    ["an empty object", "application/json", "{}"],
    ["form encoding", "application/x-www-form-urlencoded", "a=1&b=2"],
    ["plain text", "text/plain", json(valid)],
    ["a body over 64 KiB", "application/json", json({ ...valid, padding: "x".repeat(70_000) })],
  ];
  for (const field of Object.keys(valid)) {
    const missing = Object.fromEntries(Object.entries(valid).filter(([key]) => key !== field));
    cases.push([`no ${field}`, "application/json", json(missing)]);
    cases.push([`${field} as an object`, "application/json", json({ ...valid, [field]: { nested: true } })]);
    cases.push([`${field} as an array`, "application/json", json({ ...valid, [field]: ["a"] })]);
    cases.push([`${field} as a boolean`, "application/json", json({ ...valid, [field]: true })]);
    cases.push([`${field} 10,000 characters long`, "application/json", json({ ...valid, [field]: "9".repeat(10_000) })]);
  }
  return cases;
}

describe("bad input is refused with a 4xx in the API's error shape and changes nothing", () => {
  for (const endpoint of ENDPOINTS) {
    it(`POST /api${endpoint.path}`, async () => {
      const { token } = endpoint.auth ? await createUser() : { token: undefined };
      const before = await snapshot();
      for (const [name, contentType, body] of badBodies(endpoint.valid)) {
        const response = await api(endpoint.path, { method: "POST", body, token, headers: { "Content-Type": contentType } });
        expect([403, 413, 422], `${endpoint.path} with ${name}`).toContain(response.status);
        const payload = (await response.json()) as { message: unknown; errors: unknown };
        expect(typeof payload.message, name).toBe("string");
        expect(typeof payload.errors, name).toBe("object");
      }
      expect(await snapshot()).toEqual(before);
    });
  }

  it("a body over the limit is 413, malformed JSON and a wrong content type 422, with clear messages", async () => {
    const big = await api("/login", { method: "POST", body: JSON.stringify({ login: "x".repeat(70_000), password: "y" }) });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ message: "The request is too large.", errors: {} });
    const broken = await api("/login", { method: "POST", body: "{", headers: { "Content-Type": "application/json" } });
    expect(await broken.json()).toEqual({ message: "The request body must be valid JSON.", errors: {} });
    const text = await api("/login", { method: "POST", body: "hello", headers: { "Content-Type": "text/plain" } });
    expect(text.status).toBe(422);
    expect(await text.json()).toEqual({ message: "Send the request body as JSON.", errors: {} });
  });

  it("a field without a rule of its own says \"Invalid value\"", async () => {
    const response = await api("/signup", { method: "POST", body: JSON.stringify({ ...buildSignUp(), name: 7, accountType: "robot" }) });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: unknown }).errors).toEqual({ name: ["Invalid value"], accountType: ["Invalid value"] });
  });

  it("unknown API paths and methods are JSON 404s", async () => {
    for (const [method, path] of [["GET", "/nothing-here"], ["DELETE", "/me"], ["GET", "/login"]]) {
      const response = await api(path!, { method });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(await response.json()).toEqual({ message: "Not found.", errors: {} });
    }
  });
});
