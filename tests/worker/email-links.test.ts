import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { stopClockAt } from "./clock";
import { api, createUser, latestMailTo, linkIn, postJson } from "./factories";

function verificationParts(link: string) {
  const url = new URL(link);
  const [, , , id, hash] = url.pathname.split("/");
  return {
    id: Number(id),
    hash,
    expires: Number(url.searchParams.get("expires")),
    signature: url.searchParams.get("signature"),
  };
}

describe("email verification", () => {
  it("the emailed link verifies the address; a tampered or expired one does not", async () => {
    const { token, input } = await createUser();
    const parts = verificationParts(linkIn((await latestMailTo(input.email))!.text_body)!);

    // The first character: the last one of a base64url SHA-256 carries two padding bits, so changing it can
    // leave the decoded signature the same.
    const forged = await postJson("/email/verify", {
      ...parts,
      signature: parts.signature!.replace(/^./, (c) => (c === "A" ? "B" : "A")),
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ message: "This link is invalid or has expired.", errors: {} });
    const longer = await postJson("/email/verify", { ...parts, expires: parts.expires + 1 });
    expect(longer.status).toBe(403);
    const otherUser = await postJson("/email/verify", { ...parts, id: parts.id + 1 });
    expect(otherUser.status).toBe(403);
    expect(((await (await api("/me", { token })).json()) as { isEmailVerified: boolean }).isEmailVerified).toBe(false);

    const ok = await postJson("/email/verify", parts);
    expect(ok.status).toBe(200);
    expect(((await (await api("/me", { token })).json()) as { isEmailVerified: boolean }).isEmailVerified).toBe(true);
    expect((await postJson("/email/verify", parts)).status).toBe(200);
  });

  it("refuses an expired link even with a valid signature", async () => {
    const { input, user } = await createUser();
    const { hmac } = await import("../../worker/domain/shared/crypto");
    const parts = verificationParts(linkIn((await latestMailTo(input.email))!.text_body)!);
    const expires = Date.now() - 1000;
    const signature = await hmac(env.APP_SECRET!, `verify-email:${user.userId}:${parts.hash}:${expires}`);
    expect((await postJson("/email/verify", { ...parts, expires, signature })).status).toBe(403);
  });

  it("resend sends a new link, at most 3 times in 10 minutes", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const { token, input } = await createUser();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await postJson("/email/verification-notification", {}, { token })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM dev_mailbox WHERE to_address = ?")
      .bind(input.email)
      .first<{ n: number }>())!;
    expect(n).toBe(4); // the sign-up's own message and three resends
  });

  it("changing the email needs the password, then a link sent to the new address", async () => {
    const { token, input } = await createUser();
    const newEmail = `changed_${input.username}@example.test`;
    const missing = await postJson("/email/change", { email: newEmail }, { token });
    expect(await missing.json()).toEqual({
      message: "Please enter your password",
      errors: { password: ["Please enter your password"] },
    });
    const wrong = await postJson("/email/change", { email: newEmail, password: "not my password" }, { token });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toEqual({ message: "Wrong password", errors: { password: ["Wrong password"] } });
    expect(await latestMailTo(newEmail)).toBeNull();

    expect((await postJson("/email/change", { email: newEmail, password: input.password }, { token })).status).toBe(
      200,
    );
    const link = new URL(linkIn((await latestMailTo(newEmail))!.text_body)!);
    expect(link.pathname).toBe("/email/verify-change-email");
    const params = Object.fromEntries(link.searchParams);

    expect((await postJson("/email/change/confirm", { ...params, email: "someone.else@example.test" })).status).toBe(
      403,
    );
    const confirmed = await postJson("/email/change/confirm", params);
    expect(confirmed.status).toBe(200);
    expect(await confirmed.json()).toMatchObject({ isEmailVerified: true });
    const row = await env.DB.prepare("SELECT email FROM users WHERE username = ?")
      .bind(input.username)
      .first<{ email: string }>();
    expect(row?.email).toBe(newEmail);
    // The link was bound to the old address: it cannot be replayed after the change.
    expect((await postJson("/email/change/confirm", params)).status).toBe(403);
  });

  it("an address taken by another account cannot be claimed", async () => {
    const first = await createUser();
    const second = await createUser();
    const response = await postJson(
      "/email/change",
      { email: first.input.email, password: second.input.password },
      { token: second.token },
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      message: "The email has already been taken",
      errors: { email: ["The email has already been taken"] },
    });
  });
});

describe("an email change says which addresses are taken only within its limit", () => {
  it("the fourth try in 10 minutes from one account is 429, taken address or not", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const owner = await createUser();
    const prober = await createUser();
    const tries: number[] = [];
    for (let i = 0; i < 4; i++)
      tries.push(
        (
          await postJson(
            "/email/change",
            { email: owner.input.email, password: prober.input.password },
            { token: prober.token, ip: `203.0.113.${i + 1}` },
          )
        ).status,
      );
    expect(tries).toEqual([422, 422, 422, 429]);
  });
});

describe("magic link sign-in", () => {
  it("emails a one-time link that signs in once", async () => {
    const { input } = await createUser();
    const sent = await postJson("/login/magic-link", { email: input.email });
    expect(sent.status).toBe(200);
    const link = new URL(linkIn((await latestMailTo(input.email))!.text_body)!);
    expect(link.pathname).toBe("/login/withToken");
    const token = link.searchParams.get("token")!;

    const first = await postJson("/login/token", { token });
    expect(first.status).toBe(200);
    const session = (await first.json()) as { token: string; user: { username: string; isEmailVerified: boolean } };
    expect(session.user).toMatchObject({ username: input.username, isEmailVerified: true });
    expect((await api("/me", { token: session.token })).status).toBe(200);

    const again = await postJson("/login/token", { token });
    expect(again.status).toBe(403);
  });

  it("says the same for an unknown address, and sends nothing", async () => {
    const before = (await env.DB.prepare("SELECT COUNT(*) AS n FROM dev_mailbox").first<{ n: number }>())!.n;
    const response = await postJson("/login/magic-link", { email: "nobody@example.test" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      message: "If an account exists for that address, we have sent it a link.",
    });
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM dev_mailbox").first<{ n: number }>())!.n).toBe(before);
  });

  it("an expired link does not sign in", async () => {
    const { input } = await createUser();
    await postJson("/login/magic-link", { email: input.email });
    const token = new URL(linkIn((await latestMailTo(input.email))!.text_body)!).searchParams.get("token")!;
    await env.DB.prepare("UPDATE one_time_tokens SET expires_at = '2000-01-01T00:00:00.000Z'").run();
    expect((await postJson("/login/token", { token })).status).toBe(403);
  });
});

describe("password reset", () => {
  it("sets a new password once, ends every session, and the old password stops working", async () => {
    const { token, input } = await createUser();
    const second = (await (await postJson("/login", { login: input.email, password: input.password })).json()) as {
      token: string;
    };
    expect((await postJson("/password/forgot", { email: input.email })).status).toBe(200);
    const link = new URL(linkIn((await latestMailTo(input.email))!.text_body)!);
    const resetToken = link.pathname.split("/").pop()!;
    expect(link.pathname).toBe(`/reset-password/${resetToken}`);

    const mismatch = await postJson("/password/reset", {
      token: resetToken,
      password: "a brand new passphrase",
      passwordConfirmation: "something else",
    });
    expect(mismatch.status).toBe(422);
    expect(((await mismatch.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      passwordConfirmation: ["The passwords do not match."],
    });
    expect((await api("/me", { token })).status).toBe(200);

    const reset = await postJson("/password/reset", {
      token: resetToken,
      password: "a brand new passphrase",
      passwordConfirmation: "a brand new passphrase",
    });
    expect(reset.status).toBe(200);
    expect((await api("/me", { token })).status).toBe(401);
    expect((await api("/me", { token: second.token })).status).toBe(401);
    expect((await postJson("/login", { login: input.email, password: input.password })).status).toBe(422);
    expect((await postJson("/login", { login: input.email, password: "a brand new passphrase" })).status).toBe(200);

    const reuse = await postJson("/password/reset", {
      token: resetToken,
      password: "yet another passphrase",
      passwordConfirmation: "yet another passphrase",
    });
    expect(reuse.status).toBe(403);
    expect((await postJson("/login", { login: input.email, password: "a brand new passphrase" })).status).toBe(200);
  });

  it("a reset link dies when a newer reset is used", async () => {
    const { input } = await createUser();
    await postJson("/password/forgot", { email: input.email });
    const older = new URL(linkIn((await latestMailTo(input.email))!.text_body)!).pathname.split("/").pop()!;
    await postJson("/password/forgot", { email: input.email });
    const newer = new URL(linkIn((await latestMailTo(input.email))!.text_body)!).pathname.split("/").pop()!;
    expect(
      (
        await postJson("/password/reset", {
          token: newer,
          password: "first new passphrase",
          passwordConfirmation: "first new passphrase",
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await postJson("/password/reset", {
          token: older,
          password: "second new passphrase",
          passwordConfirmation: "second new passphrase",
        })
      ).status,
    ).toBe(403);
  });

  it("limits reset requests per IP", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await postJson("/password/forgot", { email: `x${i}@example.test` }, { ip: "203.0.113.90" })).status,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });
});

describe("the emailed-link limit says nothing about which addresses exist", () => {
  const mailCount = async (address: string) =>
    (await env.DB.prepare("SELECT COUNT(*) AS n FROM dev_mailbox WHERE to_address = ?")
      .bind(address)
      .first<{ n: number }>())!.n;

  for (const path of ["/login/magic-link", "/password/forgot"]) {
    it(`${path}: a known and an unknown address get the same answers, up to and past 3 in 10 minutes`, async () => {
      // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
      stopClockAt(new Date());
      const { input } = await createUser();
      const unknown = `nobody_${input.username}@example.test`;
      const answers: Record<"known" | "unknown", { status: number; body: unknown }[]> = { known: [], unknown: [] };
      // Alternating, from addresses of their own, so that each pair is asked within the same few milliseconds.
      for (let i = 0; i < 5; i++) {
        for (const [who, email] of [
          ["known", input.email],
          ["unknown", unknown],
        ] as const) {
          const response = await postJson(path, { email }, { ip: `192.0.2.${i * 2 + (who === "known" ? 0 : 1)}` });
          answers[who].push({ status: response.status, body: await response.json() });
        }
      }
      expect(answers.known.map((answer) => answer.status)).toEqual([200, 200, 200, 429, 429]);
      expect(answers.unknown).toEqual(answers.known);
      expect(await mailCount(input.email)).toBe(4); // the sign-up's verification and three links
      expect(await mailCount(unknown)).toBe(0);
    });
  }

  it("counts the address however it is written, and the magic link and the reset share the count", async () => {
    // The limit counts in fixed windows of the clock: stopped, the requests cannot straddle two.
    stopClockAt(new Date());
    const unknown = "Someone.Unknown@Example.test";
    const ip = "192.0.2.77";
    expect((await postJson("/login/magic-link", { email: unknown }, { ip })).status).toBe(200);
    expect((await postJson("/password/forgot", { email: ` ${unknown.toUpperCase()} ` }, { ip })).status).toBe(200);
    expect((await postJson("/login/magic-link", { email: unknown.toLowerCase() }, { ip })).status).toBe(200);
    expect((await postJson("/password/forgot", { email: unknown.toLowerCase() }, { ip })).status).toBe(429);
    expect((await postJson("/password/forgot", { email: "someone.else@example.test" }, { ip })).status).toBe(200);
  });
});
