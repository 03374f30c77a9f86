import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { stopClockAt } from "./clock";
import { api, createUser, postJson } from "./factories";

describe("POST /api/login", () => {
  it("signs in with the email or the username, in any case, and each sign-in is a new session", async () => {
    const { input } = await createUser();
    const byEmail = await postJson("/login", { login: input.email.toUpperCase(), password: input.password });
    expect(byEmail.status).toBe(200);
    const byUsername = await postJson("/login", { login: input.username.toUpperCase(), password: input.password });
    expect(byUsername.status).toBe(200);
    const [a, b] = [(await byEmail.json()) as { token: string }, (await byUsername.json()) as { token: string }];
    expect(a.token).not.toBe(b.token);
    const me = await api("/me", { token: a.token });
    expect(await me.json()).toMatchObject({ username: input.username });
  });

  it("gives one message for a wrong password and for an unknown account", async () => {
    const { input } = await createUser();
    const expected = {
      message: "The provided credentials are incorrect",
      errors: { login: ["The provided credentials are incorrect"] },
    };
    const wrong = await postJson("/login", { login: input.email, password: "not the password" });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual(expected);
    const unknown = await postJson("/login", { login: "nobody@example.test", password: "whatever password" });
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toEqual(expected);
  });

  const login = (body: { login: string; password: string }, ip: string) => postJson("/login", body, { ip });
  const sessionsOf = async (userId: number) =>
    (await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").bind(userId).first<{ n: number }>())!
      .n;

  it("locks an account out of one address after 5 failures from it, with Retry-After, even for the right password", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const { input, user } = await createUser();
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await login({ login: input.username, password: "wrong password" }, "198.51.100.1")).status).toBe(422);
    const locked = await login({ login: input.username, password: input.password }, "198.51.100.1");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(((await locked.json()) as { message: string }).message).toMatch(
      /^Too many attempts\. Please try again in (1 minute|([2-9]|\d{2,}) minutes)\.$/,
    );
    expect(await sessionsOf(user.userId)).toBe(1); // only the sign-up's own session
  });

  it("counts the username and the email of one account together", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const { input } = await createUser();
    const ip = "198.51.100.2";
    for (const name of [
      input.username,
      input.email.toUpperCase(),
      input.username.toUpperCase(),
      input.email,
      input.username,
    ]) {
      expect((await login({ login: name, password: "wrong password" }, ip)).status).toBe(422);
    }
    expect((await login({ login: input.email, password: input.password }, ip)).status).toBe(429);
  });

  it("a stranger's failures from another address do not lock the owner out of theirs", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const { input, user } = await createUser();
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await login({ login: input.email, password: "a guess" }, "203.0.113.66")).status).toBe(422);
    expect((await login({ login: input.email, password: input.password }, "203.0.113.66")).status).toBe(429);
    expect((await login({ login: input.username, password: input.password }, "198.51.100.3")).status).toBe(200);
    expect(await sessionsOf(user.userId)).toBe(2);
  });

  it("stops a guesser spread over many addresses after 50 failures an hour, from every address", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const { input, user } = await createUser();
    for (let address = 0; address < 10; address++) {
      for (let attempt = 0; attempt < 5; attempt++) {
        expect(
          (await login({ login: input.username, password: `guess ${attempt}` }, `100.64.0.${address}`)).status,
        ).toBe(422);
      }
    }
    expect((await login({ login: input.username, password: input.password }, "198.51.100.4")).status).toBe(429);
    expect(await sessionsOf(user.userId)).toBe(1);
    // 51 argon2id hashes: half a minute on a busy two-core machine.
  }, 120_000);

  it("answers an unknown login exactly as an account, up to and past the limit", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const { input } = await createUser();
    const answers: Record<"known" | "unknown", { status: number; body: unknown }[]> = { known: [], unknown: [] };
    for (let attempt = 0; attempt < 6; attempt++) {
      for (const [who, name] of [
        ["known", input.username],
        ["unknown", `${input.username}_nobody`],
      ] as const) {
        const response = await login({ login: name, password: "wrong password" }, "198.51.100.5");
        answers[who].push({ status: response.status, body: await response.json() });
      }
    }
    expect(answers.known.map((answer) => answer.status)).toEqual([422, 422, 422, 422, 422, 429]);
    expect(answers.unknown).toEqual(answers.known);
  }, 30_000);

  it("limits attempts per IP address", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++) {
      const response = await postJson(
        "/login",
        { login: `someone${attempt}@example.test`, password: "whatever password" },
        { ip: "203.0.113.7" },
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 422)).toBe(true);
    expect(statuses[30]).toBe(429);
    const elsewhere = await postJson(
      "/login",
      { login: "someone@example.test", password: "whatever password" },
      { ip: "203.0.113.8" },
    );
    expect(elsewhere.status).toBe(422);
    // 31 argon2id hashes (unknown accounts cost as much as real ones): seconds on a busy two-core machine.
  }, 30_000);

  it("limits sign-ups per IP address", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const { buildSignUp } = await import("./factories");
    // A refused form is no sign-up: eleven with a taken name from one address, then the ten accounts it may make.
    const { input } = await createUser();
    for (let attempt = 0; attempt < 11; attempt++)
      expect(
        (await postJson("/signup", buildSignUp({ username: input.username }), { ip: "203.0.113.50" })).status,
      ).toBe(422);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++)
      statuses.push((await postJson("/signup", buildSignUp(), { ip: "203.0.113.50" })).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(statuses[10]).toBe(429);
  }, 30_000);
});

describe("sessions", () => {
  it("GET /api/me returns exactly the fields of spec §7", async () => {
    const { token, user } = await createUser();
    const response = await api("/me", { token });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      userId: user.userId,
      avatarUrl: "",
      username: user.username,
      isCreator: false,
      isEmailVerified: false,
    });
  });

  it("answers 401 without a token, with a malformed one and with an unknown one", async () => {
    for (const authorization of [
      undefined,
      "",
      "Bearer",
      "Bearer not-a-token",
      `Bearer ${"A".repeat(43)}`,
      "Basic abc",
    ]) {
      const headers: HeadersInit = authorization === undefined ? {} : { Authorization: authorization };
      const response = await api("/me", { headers });
      expect(response.status, String(authorization)).toBe(401);
      expect(await response.json()).toEqual({ message: "Unauthenticated.", errors: {} });
    }
  });

  it("logout revokes the session for the token and the cookie alike, and leaves other sessions", async () => {
    const { token, input } = await createUser();
    const other = (await (await postJson("/login", { login: input.email, password: input.password })).json()) as {
      token: string;
    };
    const logout = await postJson("/logout", {}, { token });
    expect(logout.status).toBe(200);
    expect(logout.headers.get("Set-Cookie")).toMatch(/^__Host-session=; .*Max-Age=0/);
    expect((await api("/me", { token })).status).toBe(401);
    expect((await api("/me", { headers: { Cookie: `__Host-session=${token}` } })).status).toBe(401);
    expect((await api("/me", { token: other.token })).status).toBe(200);
    expect((await postJson("/logout", {}, { token })).status).toBe(401);
  });

  it("accepts the cookie for reads, and for writes only with the CSRF token", async () => {
    const { token } = await createUser();
    const cookie = { Cookie: `__Host-session=${token}` };
    expect((await api("/me", { headers: cookie })).status).toBe(200);

    const noCsrf = await postJson("/logout", {}, { headers: cookie });
    expect(noCsrf.status).toBe(403);
    expect((await api("/me", { token })).status).toBe(200);

    const wrongCsrf = await postJson("/logout", {}, { headers: { ...cookie, "X-CSRF-Token": "forged" } });
    expect(wrongCsrf.status).toBe(403);

    const { hmac } = await import("../../worker/domain/shared/crypto");
    const { sha256Hex } = await import("../../worker/domain/shared/crypto");
    const csrf = await hmac(env.APP_SECRET!, `csrf:${await sha256Hex(token)}`);
    const withCsrf = await postJson("/logout", {}, { headers: { ...cookie, "X-CSRF-Token": csrf } });
    expect(withCsrf.status).toBe(200);
    expect((await api("/me", { token })).status).toBe(401);
  });

  it("makes a cookie session's CSRF token only when a write checks it: the API's reads make none", async () => {
    const { token } = await createUser();
    const cookie = { Cookie: `__Host-session=${token}` };
    const hmacs = () => sign.mock.calls.filter(([algorithm]) => algorithm === "HMAC").length;
    const sign = vi.spyOn(crypto.subtle, "sign");
    try {
      expect((await api("/updates", { headers: cookie })).status).toBe(200);
      expect((await api("/me", { headers: cookie })).status).toBe(200);
      expect(hmacs()).toBe(0);
      expect((await postJson("/logout", {}, { headers: { ...cookie, "X-CSRF-Token": "forged" } })).status).toBe(403);
      expect(hmacs()).toBe(1);
    } finally {
      sign.mockRestore();
    }
  });

  it("refuses writes sent from another origin", async () => {
    const { token } = await createUser();
    const response = await postJson("/logout", {}, { token, headers: { Origin: "https://evil.example" } });
    expect(response.status).toBe(403);
    expect((await api("/me", { token })).status).toBe(200);
  });

  it("expired sessions are refused and swept by the cron job", async () => {
    const { token } = await createUser();
    await env.DB.prepare("UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z'").run();
    expect((await api("/me", { token })).status).toBe(401);
    const { runScheduledJobsAndSettle } = await import("./entry");
    await runScheduledJobsAndSettle(env);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions").first<{ n: number }>())?.n).toBe(0);
  });
});
