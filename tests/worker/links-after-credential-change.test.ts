import { describe, expect, it } from "vitest";
import { api, createUser, latestMailTo, linkIn, postJson } from "./factories";

/**
 * Whoever can read an old mailbox must not take the account over once its owner has moved the
 * address or changed the password. Each link is asked for the way an attacker would, then the owner acts, then the
 * link is tried.
 */

const NEW_PASSPHRASE = "a brand new passphrase";

async function linkFor(path: "/login/magic-link" | "/password/forgot", email: string) {
  expect((await postJson(path, { email }, { ip: `198.51.100.${Math.floor(Math.random() * 250)}` })).status).toBe(200);
  return new URL(linkIn((await latestMailTo(email))!.text_body)!);
}
const magicToken = async (email: string) => (await linkFor("/login/magic-link", email)).searchParams.get("token")!;
const resetToken = async (email: string) => (await linkFor("/password/forgot", email)).pathname.split("/").pop()!;

async function changeEmail(token: string, password: string, newEmail: string) {
  expect((await postJson("/email/change", { email: newEmail, password }, { token })).status).toBe(200);
  const params = Object.fromEntries(new URL(linkIn((await latestMailTo(newEmail))!.text_body)!).searchParams);
  expect((await postJson("/email/change/confirm", params)).status).toBe(200);
}

async function changePassword(token: string, password: string) {
  const body = { password, newPassword: NEW_PASSPHRASE, newPasswordConfirmation: NEW_PASSPHRASE };
  expect((await postJson("/me/password", body, { token })).status).toBe(200);
}

const useReset = (token: string) =>
  postJson("/password/reset", {
    token,
    password: "the attacker's passphrase",
    passwordConfirmation: "the attacker's passphrase",
  });
const useMagic = (token: string) => postJson("/login/token", { token });

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

describe("a changed email ends every link sent before", () => {
  it("the old address's reset and magic links are refused after the change is confirmed", async () => {
    const { token, input } = await createUser();
    const reset = await resetToken(input.email);
    const magic = await magicToken(input.email);
    await changeEmail(token, input.password, `moved_${input.username}@example.test`);

    expect((await useReset(reset)).status).toBe(403);
    expect((await useMagic(magic)).status).toBe(403);
    // The owner's password still works: the reset changed nothing.
    expect((await postJson("/login", { login: input.username, password: input.password })).status).toBe(200);
  });

  it("the old address's verification link does not verify the new address", async () => {
    const { token, input } = await createUser();
    const oldVerification = verificationParts(linkIn((await latestMailTo(input.email))!.text_body)!);
    const newEmail = `moved_${input.username}@example.test`;
    expect((await postJson("/email/change", { email: newEmail, password: input.password }, { token })).status).toBe(
      200,
    );
    // Following the change link proves the new address; unverify it to see that the old link cannot.
    const params = Object.fromEntries(new URL(linkIn((await latestMailTo(newEmail))!.text_body)!).searchParams);
    expect((await postJson("/email/change/confirm", params)).status).toBe(200);
    const { env } = await import("cloudflare:test");
    await env.DB.prepare("UPDATE users SET email_verified_at = NULL WHERE username = ?").bind(input.username).run();

    expect((await postJson("/email/verify", oldVerification)).status).toBe(403);
    expect(((await (await api("/me", { token })).json()) as { isEmailVerified: boolean }).isEmailVerified).toBe(false);
  });
});

describe("a changed password ends every link sent before", () => {
  it("reset and magic links asked for before the change are refused", async () => {
    const { token, input } = await createUser();
    const reset = await resetToken(input.email);
    const magic = await magicToken(input.email);
    await changePassword(token, input.password);

    expect((await useReset(reset)).status).toBe(403);
    expect((await useMagic(magic)).status).toBe(403);
    expect((await postJson("/login", { login: input.username, password: NEW_PASSPHRASE })).status).toBe(200);
  });

  it("a pending email change is refused after a password change", async () => {
    const { token, input } = await createUser();
    const attackerEmail = `attacker_${input.username}@example.test`;
    // Someone with the session (and the password) asks to move the account to their own address...
    expect(
      (await postJson("/email/change", { email: attackerEmail, password: input.password }, { token })).status,
    ).toBe(200);
    const params = Object.fromEntries(new URL(linkIn((await latestMailTo(attackerEmail))!.text_body)!).searchParams);
    // ...and the owner, noticing, changes the password.
    await changePassword(token, input.password);

    expect((await postJson("/email/change/confirm", params)).status).toBe(403);
    expect(((await (await api("/me", { token })).json()) as { username: string }).username).toBe(input.username);
    expect((await postJson("/login", { login: input.email, password: NEW_PASSPHRASE })).status).toBe(200);
  });

  it("a pending email change is refused after a password reset", async () => {
    const { token, input } = await createUser();
    const attackerEmail = `attacker_${input.username}@example.test`;
    expect(
      (await postJson("/email/change", { email: attackerEmail, password: input.password }, { token })).status,
    ).toBe(200);
    const params = Object.fromEntries(new URL(linkIn((await latestMailTo(attackerEmail))!.text_body)!).searchParams);
    const reset = await resetToken(input.email);
    expect(
      (
        await postJson("/password/reset", {
          token: reset,
          password: NEW_PASSPHRASE,
          passwordConfirmation: NEW_PASSPHRASE,
        })
      ).status,
    ).toBe(200);

    expect((await postJson("/email/change/confirm", params)).status).toBe(403);
    expect((await postJson("/login", { login: input.email, password: NEW_PASSPHRASE })).status).toBe(200);
  });

  it("a link asked for after the change still works", async () => {
    const { token, input } = await createUser();
    await changePassword(token, input.password);
    const magic = await magicToken(input.email);
    expect((await useMagic(magic)).status).toBe(200);
  });
});
