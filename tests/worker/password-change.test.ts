import { describe, expect, it } from "vitest";
import { api, createUser, postJson } from "./factories";

const signIn = async (login: string, password: string) => {
  const response = await postJson("/login", { login, password }, { ip: `10.9.${Math.floor(Math.random() * 250)}.1` });
  return {
    status: response.status,
    token: response.status === 200 ? ((await response.json()) as { token: string }).token : "",
  };
};

describe("POST /api/me/password", () => {
  it("asks for the current password and applies the sign-up rules to the new one", async () => {
    const { token, input } = await createUser();
    const change = (body: object) => postJson("/me/password", body, { token });
    const errors = async (body: object) =>
      ((await (await change(body)).json()) as { errors: Record<string, string[]> }).errors;
    expect(await errors({ newPassword: "a fresh passphrase", newPasswordConfirmation: "a fresh passphrase" })).toEqual({
      password: ["Please enter your password"],
    });
    expect(
      await errors({
        password: "wrong one",
        newPassword: "a fresh passphrase",
        newPasswordConfirmation: "a fresh passphrase",
      }),
    ).toEqual({ password: ["Wrong password"] });
    expect(
      (await errors({ password: input.password, newPassword: "short", newPasswordConfirmation: "short" })).newPassword,
    ).toEqual(["The password must be at least 8 characters."]);
    expect(
      (
        await errors({
          password: input.password,
          newPassword: "a fresh passphrase",
          newPasswordConfirmation: "another one",
        })
      ).newPasswordConfirmation,
    ).toEqual(["The passwords do not match."]);
    expect(
      (
        await postJson("/me/password", {
          password: input.password,
          newPassword: "a fresh passphrase",
          newPasswordConfirmation: "a fresh passphrase",
        })
      ).status,
    ).toBe(401);
    expect((await signIn(input.email, input.password)).status).toBe(200);
  });

  it("changes the password, keeps this session and ends every other one", async () => {
    const { token, input } = await createUser();
    const other = await signIn(input.email, input.password);
    expect((await api("/me", { token: other.token })).status).toBe(200);

    const response = await postJson(
      "/me/password",
      {
        password: input.password,
        newPassword: "a brand new passphrase",
        newPasswordConfirmation: "a brand new passphrase",
      },
      { token },
    );
    expect(response.status).toBe(200);
    expect((await api("/me", { token })).status).toBe(200);
    expect((await api("/me", { token: other.token })).status).toBe(401);
    expect((await signIn(input.email, input.password)).status).toBe(422);
    expect((await signIn(input.email, "a brand new passphrase")).status).toBe(200);
  });
});
