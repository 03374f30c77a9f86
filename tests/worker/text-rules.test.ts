import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, buildSignUp, countRows, createUser, postJson } from "./factories";
import { createPost, follow, makeCreator } from "./timeline-fixtures";
import de from "../../app/locales/de.json";

/** Text that is not text, names that hide what they say, and errors that say what is wrong. */

const errorsOf = async (response: Response) => ((await response.json()) as { errors: Record<string, string[]> }).errors;
const rawJson = (path: string, bytes: Uint8Array<ArrayBuffer>, token?: string) =>
  api(path, { method: "POST", body: bytes, headers: { "Content-Type": "application/json" }, token });
const put = (path: string, body: unknown, token: string) =>
  api(path, { method: "PUT", body: JSON.stringify(body), token });

const BROKEN = "This text contains a character that is not valid Unicode. Please type it again.";
const NOT_UTF8 = "The request body must be UTF-8 text; this one has bytes that are not.";
const INVISIBLE = "Names may not contain invisible characters or text-direction controls.";

describe("text that is not valid Unicode is refused, never stored as U+FFFD", () => {
  it("a JSON body with bytes that are not UTF-8 is a 422 and creates nothing", async () => {
    const body = new TextEncoder().encode(JSON.stringify(buildSignUp({ name: "Ann XX" })));
    const at = new TextDecoder().decode(body).indexOf("XX");
    body.set([0xff, 0xfe], at);
    const response = await rawJson("/signup", body);
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ message: NOT_UTF8, errors: {} });
    expect(await countRows("users")).toBe(0);
  });

  it("a body nested as deep as its size allows is answered with a 4xx, never a 500", async () => {
    const depth = 30_000;
    for (const inner of ['"\\ud800"', "1"]) {
      const response = await postJson("/login", `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`);
      expect(response.status).toBe(422);
    }
  });

  it("a lone surrogate escape in any string, a nested one or a key, is refused under its field", async () => {
    const creator = await makeCreator();
    const post = await postJson("/posts", '{"text":"Hello \\ud800 there","audience":"everyone"}', {
      token: creator.token,
    });
    expect(post.status).toBe(422);
    expect(await post.json()).toEqual({ message: BROKEN, errors: { text: [BROKEN] } });
    const { id } = await createPost(creator.user.userId, { text: "Stays" });
    const comment = await postJson(`/posts/${id}/comments`, '{"text":"\\udc00"}', { token: creator.token });
    expect(await errorsOf(comment)).toEqual({ text: [BROKEN] });
    const key = await postJson("/login", '{"login":"a","password":"b","\\ud83d":1}');
    expect(await errorsOf(key)).toEqual({ "\ud83d": [BROKEN] });
    // A pair is one character, and welcome.
    const emoji = await postJson("/posts", '{"text":"Hello \\ud83d\\ude00","audience":"everyone"}', {
      token: creator.token,
    });
    expect(emoji.status).toBe(201);
    expect(((await emoji.json()) as { text: string }).text).toBe("Hello 😀");
  });

  it("a form with an escape that is not UTF-8 is refused by the body schemas too", async () => {
    const { parseOrThrow } = await import("../../worker/domain/shared/validation");
    const { ProfileBodySchema } = await import("../../shared/contracts/profiles");
    expect(() => parseOrThrow(ProfileBodySchema, { name: "Ann \ud800" })).toThrow(BROKEN);
  });
});

describe("display names refuse characters that hide or reorder what they say", () => {
  const SPOOFS = [
    ["a right-to-left override", "Ann\u202Egnp.exe"],
    ["a left-to-right isolate", "Ann\u2066x"],
    ["a right-to-left mark", "\u200FAnn"],
    ["a zero-width space", "Ad\u200Bmin"],
    ["a byte-order mark", "\uFEFFAnn"],
    ["a word joiner", "Ann\u2060"],
    ["a soft hyphen", "Ann\u00ADa"],
    ["a Hangul filler (a blank name)", "\u3164"],
    ["a joiner at the end", "Ann\u200D"],
  ] as const;

  it.each(SPOOFS)("sign-up refuses %s", async (_case, name) => {
    const response = await postJson("/signup", buildSignUp({ name }));
    expect(response.status).toBe(422);
    expect(await errorsOf(response)).toEqual({ name: [INVISIBLE] });
  });

  it("Settings → Profile refuses them too, and keeps the joiners emoji and scripts need", async () => {
    const { token, user } = await createUser();
    for (const [label, name] of SPOOFS) {
      const response = await put("/me/profile", { name }, token);
      expect(await errorsOf(response), label).toEqual({ name: [INVISIBLE] });
    }
    for (const name of ["👨‍👩‍👧 family", "می‌خواهم", "❤️ Zoë", "नमस्ते"]) {
      expect((await put("/me/profile", { name }, token)).status, name).toBe(200);
      const stored = await env.DB.prepare("SELECT name FROM users WHERE id = ?")
        .bind(user.userId)
        .first<{ name: string }>();
      expect(stored?.name).toBe(name);
    }
  });
});

describe("errors say what is wrong and what is allowed", () => {
  it("sign-up: a long name, an empty or malformed email, a malformed birth date", async () => {
    expect(await errorsOf(await postJson("/signup", buildSignUp({ name: "n".repeat(61) })))).toEqual({
      name: ["The name has 1 to 60 characters."],
    });
    expect(await errorsOf(await postJson("/signup", buildSignUp({ email: "" })))).toEqual({
      email: ["Enter your email address."],
    });
    expect(await errorsOf(await postJson("/signup", buildSignUp({ email: "not-an-email" })))).toEqual({
      email: ["Enter a valid email address, such as name@example.com."],
    });
    expect(await errorsOf(await postJson("/signup", buildSignUp({ email: `${"e".repeat(250)}@x.test` })))).toEqual({
      email: ["An email address has at most 254 characters."],
    });
    for (const dateOfBirth of ["17/05/1990", "1990-02-30", "2999-01-01", "1899-12-31"]) {
      expect(await errorsOf(await postJson("/signup", buildSignUp({ dateOfBirth }))), dateOfBirth).toEqual({
        dateOfBirth: ["Enter your date of birth as a real date from 1900 to today, such as 1990-05-17."],
      });
    }
  });

  it("in the person's language, with the limit filled in", async () => {
    const response = await postJson("/signup?lng=de", buildSignUp({ email: `${"e".repeat(250)}@x.test` }));
    const expected = de["An email address has at most {{max}} characters."].replace("{{max}}", "254");
    expect(await errorsOf(response)).toEqual({ email: [expected] });
    expect(expected).not.toContain("at most");
  });

  it("forgot-password, magic link and email change: a malformed email", async () => {
    const MALFORMED = { email: ["Enter a valid email address, such as name@example.com."] };
    expect(await errorsOf(await postJson("/password/forgot", { email: "nobody" }))).toEqual(MALFORMED);
    expect(await errorsOf(await postJson("/login/magic-link", { email: "nobody@" }))).toEqual(MALFORMED);
    const { token, input } = await createUser();
    expect(
      await errorsOf(await postJson("/email/change", { email: "@example.test", password: input.password }, { token })),
    ).toEqual(MALFORMED);
  });

  it("sign-in: a login over 254 characters", async () => {
    expect(await errorsOf(await postJson("/login", { login: "l".repeat(255), password: "whatever it is" }))).toEqual({
      login: ["An email or username has at most 254 characters."],
    });
  });

  it("control characters in a post, a comment, a message and a tip's note", async () => {
    const CONTROL = ["This text may not contain control characters; only line breaks and tabs are allowed."];
    const creator = await makeCreator();
    const fan = await createUser();
    expect(
      await errorsOf(await postJson("/posts", { text: "Hi\u0007", audience: "everyone" }, { token: creator.token })),
    ).toEqual({ text: CONTROL });
    const { id } = await createPost(creator.user.userId, { text: "Open" });
    expect(
      await errorsOf(await postJson(`/posts/${id}/comments`, { text: "Hi\u001b[31m" }, { token: fan.token })),
    ).toEqual({ text: CONTROL });
    expect(
      await errorsOf(
        await postJson(
          `/posts/${id}/tips`,
          { amountCents: 500, note: "Hi\u0000", idempotencyKey: crypto.randomUUID() },
          { token: fan.token },
        ),
      ),
    ).toEqual({ note: CONTROL });
    await follow(fan.user.userId, creator.user.userId);
    const started = await postJson("/conversations", { username: creator.user.username }, { token: fan.token });
    expect(started.status).toBe(200);
    const conversation = (await started.json()) as { id: number };
    expect(
      await errorsOf(
        await postJson(
          `/conversations/${conversation.id}/messages`,
          { text: "Hi\u0085", clientId: crypto.randomUUID() },
          { token: fan.token },
        ),
      ),
    ).toEqual({ text: CONTROL });
    expect(await errorsOf(await postJson("/login", { login: "a\tb", password: "x" }))).toEqual({
      login: ["This field may not contain control characters, tabs or line breaks."],
    });
  });

  it("a withdrawal over the maximum, and an empty file", async () => {
    const creator = await makeCreator();
    const over = await postJson(
      "/payouts",
      { amountCents: 1_000_000_000, idempotencyKey: crypto.randomUUID() },
      { token: creator.token },
    );
    expect(await errorsOf(over)).toEqual({ amountCents: ["A withdrawal can be at most $9,999,999.99."] });
    const fraction = await postJson(
      "/payouts",
      { amountCents: 12.5, idempotencyKey: crypto.randomUUID() },
      { token: creator.token },
    );
    expect(await errorsOf(fraction)).toEqual({ amountCents: ["Send the amount as a whole number of cents."] });
    const empty = await postJson(
      "/uploads",
      { purpose: "avatar", fileName: "me.png", contentType: "image/png", size: 0 },
      { token: creator.token },
    );
    expect(await errorsOf(empty)).toEqual({ size: ["This file is empty. Choose a file that has something in it."] });
  });
});
