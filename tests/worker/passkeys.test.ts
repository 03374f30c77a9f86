import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SoftAuthenticator } from "../support/soft-authenticator";
import { stopClockAt } from "./clock";
import { api, createUser, postJson } from "./factories";

/**
 * Passkeys through the API with a software authenticator (tests/support/soft-authenticator.ts) at the test
 * Worker's origin: adding one behind the password, signing in with it, and every way an answer must be refused.
 */

const ORIGIN = "https://app.test";

type Person = Awaited<ReturnType<typeof createUser>>;
interface RegistrationOptions {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string };
  excludeCredentials: { id: string }[];
  authenticatorSelection: { residentKey: string; userVerification: string };
}
interface AuthenticationOptions {
  challenge: string;
  rpId: string;
  userVerification: string;
}

async function registrationOptions(person: Person, password = person.input.password) {
  const response = await postJson(
    "/passkeys/registration/options",
    { name: "Laptop", password },
    { token: person.token },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as RegistrationOptions;
}

/** Adds a passkey to `person`'s account on a new software authenticator. */
async function addPasskey(person: Person, name = "Laptop") {
  const authenticator = new SoftAuthenticator(ORIGIN);
  const response = await authenticator.register(await registrationOptions(person));
  const added = await postJson("/passkeys", { name, response }, { token: person.token });
  expect(added.status).toBe(201);
  return { authenticator, passkey: (await added.json()) as { id: number; name: string } };
}

async function signInOptions(ip?: string) {
  const response = await postJson("/login/passkey/options", {}, { ip });
  expect(response.status).toBe(200);
  return (await response.json()) as AuthenticationOptions;
}

const signIn = (response: unknown, ip?: string) => postJson("/login/passkey", { response }, { ip });

const sessionsOf = async (userId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?").bind(userId).first<{ n: number }>())!.n;

const REFUSED = { message: "This passkey could not sign you in. Try another way to sign in.", errors: {} };

describe("passkeys", () => {
  it("adds a passkey behind the password and signs in with it, no account named, into a session of its own", async () => {
    const person = await createUser();
    const options = await registrationOptions(person);
    expect(options.rp).toEqual({ id: "app.test", name: "Fanclub" });
    expect(options.user.name).toBe(person.input.username);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    const authenticator = new SoftAuthenticator(ORIGIN);
    const added = await postJson(
      "/passkeys",
      { name: " Work laptop ", response: await authenticator.register(options) },
      { token: person.token },
    );
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ name: "Work laptop", lastUsedAt: null, backedUp: false });

    const sessionsBefore = await sessionsOf(person.user.userId);
    const login = await signInOptions();
    expect(login).toMatchObject({ rpId: "app.test", userVerification: "required" });
    const signedIn = await signIn(await authenticator.signIn(login));
    expect(signedIn.status).toBe(200);
    const { token, user } = (await signedIn.json()) as { token: string; user: { username: string } };
    expect(user.username).toBe(person.input.username);
    expect(signedIn.headers.get("Set-Cookie")).toMatch(/^__Host-session=/);
    expect(await sessionsOf(person.user.userId)).toBe(sessionsBefore + 1);
    expect(await (await api("/me", { token })).json()).toMatchObject({ username: person.input.username });

    const list = (await (await api("/passkeys", { token })).json()) as {
      passkeys: { name: string; lastUsedAt: string | null }[];
    };
    expect(list.passkeys).toHaveLength(1);
    expect(list.passkeys[0]!.lastUsedAt).not.toBeNull();
    const stored = await env.DB.prepare("SELECT counter FROM passkeys WHERE user_id = ?")
      .bind(person.user.userId)
      .first<{ counter: number }>();
    expect(stored!.counter).toBe(1);
  });

  it("asks for a name and the right password before a passkey can be added, and makes no challenge without them", async () => {
    const person = await createUser();
    const unnamed = await postJson(
      "/passkeys/registration/options",
      { name: " ", password: person.input.password },
      { token: person.token },
    );
    expect(unnamed.status).toBe(422);
    expect(await unnamed.json()).toMatchObject({ errors: { name: ["Give the passkey a name."] } });
    const missing = await postJson("/passkeys/registration/options", { name: "Laptop" }, { token: person.token });
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ errors: { password: ["Please enter your password"] } });
    const wrong = await postJson(
      "/passkeys/registration/options",
      { name: "Laptop", password: "not it" },
      { token: person.token },
    );
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({ errors: { password: ["Wrong password"] } });
    const challenges = await env.DB.prepare("SELECT COUNT(*) AS n FROM passkey_challenges").first<{ n: number }>();
    expect(challenges!.n).toBe(0);
    const signedOut = await postJson("/passkeys/registration/options", {
      name: "Laptop",
      password: person.input.password,
    });
    expect(signedOut.status).toBe(401);
  });

  it("names the account's passkeys in a new registration's exclusions, so an authenticator makes no second one", async () => {
    const person = await createUser();
    const { authenticator } = await addPasskey(person);
    const options = await registrationOptions(person);
    expect(options.excludeCredentials).toHaveLength(1);
    const first = await authenticator.signIn(await signInOptions());
    expect(options.excludeCredentials[0]!.id).toBe(first.id);
  });

  it("refuses a sign-in whose signature is not the passkey's", async () => {
    const person = await createUser();
    const { authenticator } = await addPasskey(person);
    const forged = await authenticator.signIn(await signInOptions(), {
      signWith: await SoftAuthenticator.newKeyPair(),
    });
    const refused = await signIn(forged);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual(REFUSED);
    expect(await sessionsOf(person.user.userId)).toBe(1);
  });

  it("takes each challenge once: a replayed sign-in, or a replayed registration, is refused", async () => {
    const person = await createUser();
    const { authenticator } = await addPasskey(person);
    const answer = await authenticator.signIn(await signInOptions());
    expect((await signIn(answer)).status).toBe(200);
    const replayed = await signIn(answer);
    expect(replayed.status).toBe(422);
    expect(await sessionsOf(person.user.userId)).toBe(2);

    const registration = await new SoftAuthenticator(ORIGIN).register(await registrationOptions(person));
    expect(
      (await postJson("/passkeys", { name: "Phone", response: registration }, { token: person.token })).status,
    ).toBe(201);
    const again = await postJson("/passkeys", { name: "Phone", response: registration }, { token: person.token });
    expect(again.status).toBe(422);
  });

  it("refuses an answer to a challenge that has expired (5 minutes)", async () => {
    const start = new Date();
    stopClockAt(start);
    const person = await createUser();
    const { authenticator } = await addPasskey(person);
    const answer = await authenticator.signIn(await signInOptions());
    stopClockAt(new Date(start.getTime() + 5 * 60_000 + 1));
    expect((await signIn(answer)).status).toBe(422);
  });

  it("refuses an answer made for another origin, and one a cloned key signs with a counter that did not move on", async () => {
    const person = await createUser();
    const { authenticator } = await addPasskey(person);
    const phished = await authenticator.signIn(await signInOptions(), { origin: "https://app.test.evil.example" });
    expect((await signIn(phished)).status).toBe(422);
    expect((await signIn(await authenticator.signIn(await signInOptions()))).status).toBe(200);
    const cloned = await authenticator.signIn(await signInOptions(), { counter: 1 });
    expect((await signIn(cloned)).status).toBe(422);
  });

  it("refuses a passkey once removed", async () => {
    const person = await createUser();
    const { authenticator, passkey } = await addPasskey(person);
    const removed = await api(`/passkeys/${passkey.id}`, { method: "DELETE", token: person.token });
    expect(removed.status).toBe(204);
    const refused = await signIn(await authenticator.signIn(await signInOptions()));
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual(REFUSED);
    expect(await (await api("/passkeys", { token: person.token })).json()).toEqual({ passkeys: [] });
  });

  it("keeps one account's passkeys from another: no rename, no removal, no sign-in as the other, no borrowed challenge", async () => {
    const owner = await createUser();
    const stranger = await createUser();
    const { authenticator, passkey } = await addPasskey(owner);
    await addPasskey(stranger);

    const rename = await api(`/passkeys/${passkey.id}`, {
      method: "PATCH",
      token: stranger.token,
      body: JSON.stringify({ name: "Mine now" }),
    });
    expect(rename.status).toBe(404);
    expect((await api(`/passkeys/${passkey.id}`, { method: "DELETE", token: stranger.token })).status).toBe(404);

    // The owner's credential reporting the stranger's user handle is refused: a handle must name the key's owner.
    const strangerHandle = (await registrationOptions(stranger)).user.id;
    const mixed = await authenticator.signIn(await signInOptions(), { userHandle: strangerHandle });
    expect((await signIn(mixed)).status).toBe(422);

    // A registration challenge issued to the owner cannot add a key to the stranger's account.
    const ownersChallenge = await registrationOptions(owner);
    const borrowed = await new SoftAuthenticator(ORIGIN).register(ownersChallenge);
    const added = await postJson("/passkeys", { name: "Borrowed", response: borrowed }, { token: stranger.token });
    expect(added.status).toBe(422);
    expect(await (await api("/passkeys", { token: owner.token })).json()).toMatchObject({
      passkeys: [{ name: "Laptop" }],
    });
    expect(await sessionsOf(stranger.user.userId)).toBe(1);
  });

  it("renames a passkey with a name checked like any text", async () => {
    const person = await createUser();
    const { passkey } = await addPasskey(person);
    const rename = (name: string) =>
      api(`/passkeys/${passkey.id}`, { method: "PATCH", token: person.token, body: JSON.stringify({ name }) });
    const renamed = await rename("Phone");
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ id: passkey.id, name: "Phone" });
    const blank = await rename("   ");
    expect(blank.status).toBe(422);
    expect(await blank.json()).toMatchObject({ errors: { name: ["Give the passkey a name."] } });
  });

  it("locks an address out after 10 refused answers, with Retry-After, even for a right one", async () => {
    stopClockAt(new Date());
    const person = await createUser();
    const { authenticator } = await addPasskey(person);
    const ip = "198.51.100.40";
    const forger = await SoftAuthenticator.newKeyPair();
    for (let attempt = 0; attempt < 10; attempt++) {
      const forged = await authenticator.signIn(await signInOptions(ip), { signWith: forger });
      expect((await signIn(forged, ip)).status).toBe(422);
    }
    const locked = await signIn(await authenticator.signIn(await signInOptions(ip)), ip);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(
      (await signIn(await authenticator.signIn(await signInOptions("198.51.100.41")), "198.51.100.41")).status,
    ).toBe(200);
  });
});
