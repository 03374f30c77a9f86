import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { stopClockAt } from "./clock";
import { buildSignUp, countRows, createUser, latestMailTo, postJson } from "./factories";
import {
  ARGON2_PARAMS,
  hashPassword,
  passwordHashParams,
  TEST_ARGON2_PARAMS,
  verifyPassword,
} from "../../worker/domain/auth/password";
import de from "../../app/locales/de.json";
import ja from "../../app/locales/ja.json";
import zhTW from "../../app/locales/zh-TW.json";

describe("password hashes", () => {
  it("use OWASP's argon2id baseline outside APP_ENV=test, and verify at whatever cost they were made", async () => {
    expect(ARGON2_PARAMS).toEqual({ memorySize: 19456, passes: 2, parallelism: 1, tagLength: 32 });
    expect(passwordHashParams({ APP_ENV: "production" })).toBe(ARGON2_PARAMS);
    expect(passwordHashParams({ APP_ENV: "development" })).toBe(ARGON2_PARAMS);
    expect(passwordHashParams({ APP_ENV: "test" })).toEqual({
      memorySize: 256,
      passes: 1,
      parallelism: 1,
      tagLength: 32,
    });
    const strong = await hashPassword("correct horse battery", ARGON2_PARAMS);
    expect(strong).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword("correct horse battery", strong)).toBe(true);
    expect(await verifyPassword("correct horse batterY", strong)).toBe(false);
    // A hash made at the tests' cost still verifies with the cost it names, never with the default.
    const cheap = await hashPassword("correct horse battery", TEST_ARGON2_PARAMS);
    expect(await verifyPassword("correct horse battery", cheap)).toBe(true);
    expect(await verifyPassword("correct horse battery", cheap.replace("m=256,t=1", "m=19456,t=2"))).toBe(false);
  });
});

describe("POST /api/signup", () => {
  it("creates a member, signs them in and sends the verification email", async () => {
    const body = buildSignUp({ username: "New.Person_1" });
    const response = await postJson("/signup", body);
    expect(response.status).toBe(201);
    const result = (await response.json()) as { token: string; user: Record<string, unknown> };
    expect(result.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(result.user).sort()).toEqual([
      "avatarUrl",
      "isCreator",
      "isEmailVerified",
      "userId",
      "username",
    ]);
    expect(result.user).toMatchObject({
      username: "new.person_1",
      isCreator: false,
      isEmailVerified: false,
      avatarUrl: "",
    });
    expect(response.headers.get("Set-Cookie")).toMatch(
      /^__Host-session=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax/,
    );

    const mail = await latestMailTo(body.email);
    expect(mail?.subject).toBe("Verify your email address");
    expect(mail?.text_body).toMatch(/\/email\/verify\/\d+\/[0-9a-f]{40}\?expires=\d+&signature=/);

    const stored = await env.DB.prepare("SELECT password_hash FROM users WHERE username = ?")
      .bind("new.person_1")
      .first<{ password_hash: string }>();
    // The worker tier (APP_ENV=test) signs up at the lowered cost; the production cost is checked above.
    expect(stored?.password_hash).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    const session = await env.DB.prepare("SELECT token_hash FROM sessions").first<{ token_hash: string }>();
    expect(session?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(session?.token_hash).not.toBe(result.token);
  });

  it("refuses a username or email already taken, whatever the case", async () => {
    const { input } = await createUser();
    const response = await postJson(
      "/signup",
      buildSignUp({ username: input.username.toUpperCase(), email: input.email.toUpperCase() }),
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      message: "The username has already been taken",
      errors: { username: ["The username has already been taken"], email: ["The email has already been taken"] },
    });
    expect(await countRows("users")).toBe(1);
  });

  it("reports a taken username together with the other problems, in one answer", async () => {
    const { input } = await createUser();
    const response = await postJson(
      "/signup",
      buildSignUp({ username: input.username, dateOfBirth: "2019-01-01", password: "short" }),
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      message: "The username has already been taken",
      errors: {
        username: ["The username has already been taken"],
        password: ["The password must be at least 8 characters."],
        dateOfBirth: ["Your age must be over 18+"],
      },
    });
  });

  it("says an email is taken only for an otherwise valid sign-up", async () => {
    const { input } = await createUser();
    const invalid = await postJson("/signup", buildSignUp({ email: input.email, password: "short" }));
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({
      message: "The password must be at least 8 characters.",
      errors: { password: ["The password must be at least 8 characters."] },
    });
    // An unknown field makes the body invalid too.
    const extra = await postJson("/signup", { ...buildSignUp({ email: input.email }), admin: true });
    expect(((await extra.json()) as { errors: Record<string, string[]> }).errors).toEqual({ admin: ["Invalid value"] });
    const valid = await postJson("/signup", buildSignUp({ email: input.email }));
    expect(await valid.json()).toEqual({
      message: "The email has already been taken",
      errors: { email: ["The email has already been taken"] },
    });
  });

  it("answers 429 from one address after 25 well-formed tries, before saying whether an email is taken", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const { input } = await createUser();
    const ip = "198.51.100.46";
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await postJson("/signup", buildSignUp({ email: input.email }), { ip })).status);
    expect(statuses).toEqual(Array(25).fill(422));
    const blocked = await postJson("/signup", buildSignUp({ email: input.email }), { ip });
    expect(blocked.status).toBe(429);
    expect(JSON.stringify(await blocked.json())).not.toContain("taken");
    // The same limit for an address nobody has: the answer does not depend on the email.
    expect((await postJson("/signup", buildSignUp(), { ip })).status).toBe(429);
    expect(await countRows("users")).toBe(1);
  });

  it("refuses anyone under 18, to the day", async () => {
    const today = new Date();
    const turns18Tomorrow = new Date(Date.UTC(today.getUTCFullYear() - 18, today.getUTCMonth(), today.getUTCDate() + 1))
      .toISOString()
      .slice(0, 10);
    const response = await postJson("/signup", buildSignUp({ dateOfBirth: turns18Tomorrow }));
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      message: "Your age must be over 18+",
      errors: { dateOfBirth: ["Your age must be over 18+"] },
    });

    const turned18Today = new Date(Date.UTC(today.getUTCFullYear() - 18, today.getUTCMonth(), today.getUTCDate()))
      .toISOString()
      .slice(0, 10);
    expect((await postJson("/signup", buildSignUp({ dateOfBirth: turned18Today }))).status).toBe(201);
  });

  it.each([
    ["too short", "ab"],
    ["too long", "a".repeat(31)],
    ["a space", "has space"],
    ["a dash", "has-dash"],
    ["a leading dot", ".dotted"],
    ["two dots in a row", "two..dots"],
    ["non-ASCII letters", "zoë_x"],
  ])("refuses a username with %s", async (_case, username) => {
    const response = await postJson("/signup", buildSignUp({ username }));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { errors: Record<string, string[]> };
    expect(body.errors.username).toEqual([
      "Usernames have 3 to 30 characters: letters a-z, digits, dots and underscores.",
    ]);
  });

  it.each(["home", "Login", "admin", "api", "media", "settings", "live", "becomeCreator", "favicon.ico"])(
    "refuses the reserved username %s",
    async (username) => {
      const response = await postJson("/signup", buildSignUp({ username }));
      expect(response.status).toBe(422);
      expect(((await response.json()) as { errors: Record<string, string[]> }).errors.username).toEqual([
        "This username is not available.",
      ]);
    },
  );

  it.each([
    ["shorter than 8", "short7!", "The password must be at least 8 characters."],
    ["longer than 128", "x".repeat(129), "The password may not be longer than 128 characters."],
    ["common", "Password123", "This password is too common. Please choose another one."],
    ["common, any case", "QWERTYUIOP", "This password is too common. Please choose another one."],
  ])("refuses a password %s", async (_case, password, message) => {
    const response = await postJson("/signup", buildSignUp({ password }));
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: Record<string, string[]> }).errors.password).toEqual([message]);
  });

  it("accepts a 128-character passphrase and each of the twelve account types", async () => {
    const types = [
      "male",
      "female",
      "couple",
      "gay_couple",
      "gay_man",
      "lesbian",
      "lesbian_couple",
      "studio",
      "swinger",
      "transsexual",
      "transsexual_couple",
      "other",
    ];
    for (const [index, accountType] of types.entries()) {
      const password = index === 0 ? "p".repeat(64) + "q".repeat(64) : undefined;
      const response = await postJson("/signup", buildSignUp({ accountType, ...(password ? { password } : {}) }), {
        ip: `192.0.2.${index}`,
      });
      expect(response.status, accountType).toBe(201);
    }
  });

  it("answers in the language asked for: ?lng, then the i18nextLng cookie, then Accept-Language", async () => {
    const underage = buildSignUp({ dateOfBirth: "2015-01-01" });
    const messageFor = async (path: string, headers: HeadersInit) =>
      ((await (await postJson(path, underage, { headers })).json()) as { message: string }).message;
    expect(await messageFor("/signup", { "Accept-Language": "xx-YY, en;q=0.5" })).toBe("Your age must be over 18+");
    expect(await messageFor("/signup", { "Accept-Language": "de-AT,de;q=0.9" })).toBe(de["Your age must be over 18+"]);
    expect(await messageFor("/signup", { Cookie: "i18nextLng=ja", "Accept-Language": "de" })).toBe(
      ja["Your age must be over 18+"],
    );
    expect(await messageFor("/signup?lng=zh-TW", { Cookie: "i18nextLng=ja" })).toBe(zhTW["Your age must be over 18+"]);
    expect(de["Your age must be over 18+"]).not.toBe("Your age must be over 18+");
    // Each header's language is kept per header (worker/http/middleware.ts): asked again in turn, each still gets its own.
    for (const round of [1, 2]) {
      expect(await messageFor("/signup", { "Accept-Language": "de-AT,de;q=0.9" }), `round ${round}`).toBe(
        de["Your age must be over 18+"],
      );
      expect(await messageFor("/signup", { "Accept-Language": "ja" }), `round ${round}`).toBe(
        ja["Your age must be over 18+"],
      );
    }
    // A header longer than a browser's is read all the same (and not kept).
    expect(await messageFor("/signup", { "Accept-Language": `${"xx-YYYY;q=0.1, ".repeat(15)}ja` })).toBe(
      ja["Your age must be over 18+"],
    );
  });
});
