import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { authenticatorCode } from "../support/totp";
import { stopClockAt } from "./clock";
import { api, createUser, latestMailTo, linkIn, postJson } from "./factories";
import { confirmSecondStep } from "../../worker/domain/auth/second-step";
import { config } from "../../worker/env";

type Challenge = { twoStep: { challenge: string; methods: string[] } };

/** The tests' clock, stopped; each code is made at a new 30-second step, since a used step is never taken again. */
let at = Math.floor(Date.now() / 30_000) * 30_000;
function nextStep(): number {
  at += 30_000;
  stopClockAt(new Date(at));
  return at;
}
const codeNow = async (secret: string) => authenticatorCode(secret, nextStep());

/** Six digits that are no code of the secret around the clock's time: a guess that is sure to be wrong. */
async function wrongCode(secret: string, attempt: number): Promise<string> {
  const right = await Promise.all([-1, 0, 1].map((offset) => authenticatorCode(secret, at + offset * 30_000)));
  for (let guess = 100_000 + attempt * 7; ; guess++) if (!right.includes(String(guess))) return String(guess);
}

const sessionsOf = async (userId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").bind(userId).first<{ n: number }>())!.n;

/** A member with two-step sign-in on: the secret their app holds and the recovery codes they saved. */
async function memberWithTwoStep() {
  const member = await createUser();
  nextStep();
  const setup = await postJson("/me/two-step/setup", {}, { token: member.token });
  expect(setup.status).toBe(200);
  const { secret, uri } = (await setup.json()) as { secret: string; uri: string };
  expect(new URL(uri).searchParams.get("secret")).toBe(secret);
  const confirmed = await postJson("/me/two-step/confirm", { code: await codeNow(secret) }, { token: member.token });
  expect(confirmed.status).toBe(200);
  const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
  return { ...member, secret, recoveryCodes };
}

async function passwordStep(
  input: { email: string; password: string },
  init: { ip?: string; headers?: HeadersInit } = {},
) {
  const response = await postJson("/login", { login: input.email, password: input.password }, init);
  expect(response.status).toBe(200);
  return (await response.json()) as Challenge | { token: string };
}

async function challengeFor(input: { email: string; password: string }) {
  const answer = await passwordStep(input);
  expect(answer).toEqual({ twoStep: { challenge: expect.any(String), methods: ["app", "recovery", "email"] } });
  return (answer as Challenge).twoStep.challenge;
}

const secondStep = (body: { challenge: string; code: string; trustDevice?: boolean }, ip?: string) =>
  postJson("/login/two-step", body, { ip });

describe("turning two-step sign-in on", () => {
  it("is on only once a code from the new secret is confirmed, and answers ten recovery codes", async () => {
    const { token, user, input } = await createUser();
    nextStep();
    const { secret } = (await (await postJson("/me/two-step/setup", {}, { token })).json()) as { secret: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // Not on yet: the password alone still signs in.
    expect(await passwordStep(input)).toHaveProperty("token");
    const stored = await env.DB.prepare("SELECT secret FROM two_step WHERE user_id = ?").bind(user.userId).first();
    expect(JSON.stringify(stored)).not.toContain(secret);

    const wrong = await postJson("/me/two-step/confirm", { code: await wrongCode(secret, 0) }, { token });
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as { errors: object }).errors).toHaveProperty("code");
    expect(await (await api("/me/two-step", { token })).json()).toEqual({ enabled: false, recoveryCodesLeft: 0 });

    const right = await postJson("/me/two-step/confirm", { code: await codeNow(secret) }, { token });
    expect(right.status).toBe(200);
    const { recoveryCodes } = (await right.json()) as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await (await api("/me/two-step", { token })).json()).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    // On: a new secret cannot replace the confirmed one.
    expect((await postJson("/me/two-step/setup", {}, { token })).status).toBe(409);
  });
});

describe("signing in with two-step sign-in on", () => {
  it("a right password answers a challenge and no session; the authenticator's code opens one, once", async () => {
    const { user, input, secret } = await memberWithTwoStep();
    const before = await sessionsOf(user.userId);
    const challenge = await challengeFor(input);
    expect(await sessionsOf(user.userId)).toBe(before);

    const code = await codeNow(secret);
    const signedIn = await secondStep({ challenge, code });
    expect(signedIn.status).toBe(200);
    const { token } = (await signedIn.json()) as { token: string };
    expect(signedIn.headers.getSetCookie().some((cookie) => cookie.startsWith("__Host-session="))).toBe(true);
    expect(await (await api("/me", { token })).json()).toMatchObject({ username: input.username });

    // The challenge is used up, and the same code does not open a second sign-in.
    expect((await secondStep({ challenge, code })).status).toBe(403);
    const again = await secondStep({ challenge: await challengeFor(input), code });
    expect(again.status).toBe(422);
    expect(await again.json()).toEqual({
      message: "That code is not right. Check it and try again.",
      errors: { code: ["That code is not right. Check it and try again."] },
    });
  });

  it("a recovery code works once", async () => {
    const { input, recoveryCodes } = await memberWithTwoStep();
    // Typed as people do: capitals, no dash.
    const typed = recoveryCodes[3]!.replace("-", "").toUpperCase();
    expect((await secondStep({ challenge: await challengeFor(input), code: typed })).status).toBe(200);
    expect((await secondStep({ challenge: await challengeFor(input), code: recoveryCodes[3]! })).status).toBe(422);
    expect((await secondStep({ challenge: await challengeFor(input), code: recoveryCodes[4]! })).status).toBe(200);
  });

  it("a code emailed for the challenge works for that challenge only", async () => {
    const { input } = await memberWithTwoStep();
    const first = await challengeFor(input);
    const sent = await postJson("/login/two-step/email", { challenge: first });
    expect(sent.status).toBe(200);
    const mail = (await latestMailTo(input.email))!;
    expect(mail.subject).toBe("Your sign-in code");
    const code = /\b(\d{6})\b/.exec(mail.text_body)![1]!;

    expect((await secondStep({ challenge: await challengeFor(input), code })).status).toBe(422);
    expect((await secondStep({ challenge: first, code })).status).toBe(200);
  });

  it("trusting the device skips the code on it for 30 days, and on no other device", async () => {
    const { input, secret } = await memberWithTwoStep();
    const trusted = await secondStep({
      challenge: await challengeFor(input),
      code: await codeNow(secret),
      trustDevice: true,
    });
    expect(trusted.status).toBe(200);
    const cookie = trusted.headers.getSetCookie().find((text) => text.startsWith("__Host-trusted-device="))!;
    expect(cookie).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax; Max-Age=2592000$/);
    const device = cookie.split(";")[0]!;

    expect(await passwordStep(input, { headers: { Cookie: device } })).toHaveProperty("token");
    expect(
      await passwordStep(input, { headers: { Cookie: "__Host-trusted-device=not-a-trusted-token" } }),
    ).toHaveProperty("twoStep");
    expect(await passwordStep(input)).toHaveProperty("twoStep");
    stopClockAt(new Date(at + 31 * 24 * 3600_000));
    expect(await passwordStep(input, { headers: { Cookie: device } })).toHaveProperty("twoStep");
  });

  it("a magic link asks for the code too", async () => {
    const { user, input, secret } = await memberWithTwoStep();
    expect((await postJson("/login/magic-link", { email: input.email })).status).toBe(200);
    const link = new URL(linkIn((await latestMailTo(input.email))!.text_body)!);
    const before = await sessionsOf(user.userId);
    const answer = await postJson("/login/token", { token: link.searchParams.get("token") });
    expect(answer.status).toBe(200);
    const { twoStep } = (await answer.json()) as Challenge;
    expect(await sessionsOf(user.userId)).toBe(before);
    expect((await secondStep({ challenge: twoStep.challenge, code: await codeNow(secret) })).status).toBe(200);
  });

  it("after a password reset, the next sign-in asks for the code", async () => {
    const { input } = await memberWithTwoStep();
    await postJson("/password/forgot", { email: input.email });
    const resetToken = new URL(linkIn((await latestMailTo(input.email))!.text_body)!).pathname.split("/").pop()!;
    const password = "a brand new passphrase";
    const reset = await postJson("/password/reset", { token: resetToken, password, passwordConfirmation: password });
    expect(reset.status).toBe(200);
    expect(await passwordStep({ email: input.email, password })).toHaveProperty("twoStep");
  });

  it("an unknown or expired challenge is refused", async () => {
    const { input, secret } = await memberWithTwoStep();
    expect((await secondStep({ challenge: "x".repeat(43), code: "123456" })).status).toBe(403);
    const challenge = await challengeFor(input);
    stopClockAt(new Date(at + 11 * 60_000));
    const late = await secondStep({ challenge, code: await authenticatorCode(secret, at + 11 * 60_000) });
    expect(late.status).toBe(403);
    expect(await late.json()).toEqual({ message: "This sign-in has expired. Please sign in again.", errors: {} });
  });
});

describe("guess limits on codes", () => {
  it("5 wrong codes end a challenge: then even the right code answers 429", async () => {
    const { input, secret } = await memberWithTwoStep();
    const challenge = await challengeFor(input);
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await secondStep({ challenge, code: await wrongCode(secret, attempt) })).status).toBe(422);
    const locked = await secondStep({ challenge, code: await authenticatorCode(secret, at) });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("10 wrong codes across challenges lock the account's second step, for sign-ins and re-checks alike", async () => {
    const { input, secret, user, recoveryCodes } = await memberWithTwoStep();
    for (let challenges = 0; challenges < 2; challenges++) {
      const challenge = await challengeFor(input);
      for (let attempt = 0; attempt < 5; attempt++)
        expect((await secondStep({ challenge, code: await wrongCode(secret, attempt) })).status).toBe(422);
    }
    expect((await secondStep({ challenge: await challengeFor(input), code: recoveryCodes[0]! })).status).toBe(429);
    const ctx = { db: env.DB, config: config(env) };
    await expect(
      confirmSecondStep(ctx, { id: user.userId }, await authenticatorCode(secret, at)),
    ).rejects.toMatchObject({ code: "rate_limited" });
  });

  it("every attempt counts against the address: the 31st in 10 minutes answers 429", async () => {
    nextStep();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++)
      statuses.push((await secondStep({ challenge: `unknown-${attempt}`, code: "123456" }, "203.0.113.90")).status);
    expect(statuses.slice(0, 30).every((status) => status === 403)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe("re-checks and turning off", () => {
  it("confirmSecondStep passes with two-step off, and wants a right code with it on", async () => {
    const plain = await createUser();
    const ctx = { db: env.DB, config: config(env) };
    await expect(confirmSecondStep(ctx, { id: plain.user.userId }, undefined)).resolves.toBeUndefined();
    const { user, secret } = await memberWithTwoStep();
    await expect(confirmSecondStep(ctx, { id: user.userId }, undefined)).rejects.toMatchObject({
      fieldErrors: { code: ["Enter the code from your authenticator app, or a recovery code."] },
    });
    await expect(confirmSecondStep(ctx, { id: user.userId }, await wrongCode(secret, 0))).rejects.toMatchObject({
      fieldErrors: { code: ["That code is not right. Check it and try again."] },
    });
    await expect(confirmSecondStep(ctx, { id: user.userId }, await codeNow(secret))).resolves.toBeUndefined();
  });

  it("turning off needs the password and a code; then the password alone signs in again", async () => {
    const { token, input, secret } = await memberWithTwoStep();
    const noCode = await postJson("/me/two-step/off", { password: input.password }, { token });
    expect(noCode.status).toBe(422);
    expect(((await noCode.json()) as { errors: object }).errors).toHaveProperty("code");
    const wrongPassword = await postJson(
      "/me/two-step/off",
      { password: "wrong one", code: await codeNow(secret) },
      { token },
    );
    expect(wrongPassword.status).toBe(422);
    expect(((await wrongPassword.json()) as { errors: object }).errors).toHaveProperty("password");
    expect(await passwordStep(input)).toHaveProperty("twoStep");

    const off = await postJson(
      "/me/two-step/off",
      { password: input.password, code: await codeNow(secret) },
      { token },
    );
    expect(off.status).toBe(200);
    expect(await (await api("/me/two-step", { token })).json()).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    expect(await passwordStep(input)).toHaveProperty("token");
  });

  it("new recovery codes need a code and replace the old ones", async () => {
    const { token, input, secret, recoveryCodes } = await memberWithTwoStep();
    const wrong = await wrongCode(secret, 0);
    expect((await postJson("/me/two-step/recovery-codes", { code: wrong }, { token })).status).toBe(422);
    const renewed = await postJson("/me/two-step/recovery-codes", { code: await codeNow(secret) }, { token });
    expect(renewed.status).toBe(200);
    const fresh = ((await renewed.json()) as { recoveryCodes: string[] }).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect((await secondStep({ challenge: await challengeFor(input), code: recoveryCodes[0]! })).status).toBe(422);
    expect((await secondStep({ challenge: await challengeFor(input), code: fresh[0]! })).status).toBe(200);
  });

  it("signing up never asks for a second step", async () => {
    const { token } = await createUser();
    expect((await api("/me", { token })).status).toBe(200);
  });
});
