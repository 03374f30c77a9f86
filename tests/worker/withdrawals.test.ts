import { env } from "cloudflare:test";
import { testContext } from "./domain-context";
import { describe, expect, it } from "vitest";
import { findUserById } from "../../worker/domain/accounts/users";
import { auditLedger, balanceOf, balancesOf, PROVIDER_CLEARING } from "../../worker/domain/money/ledger";
import { PAYOUTS_PAGE_SIZE } from "../../worker/domain/money/list-payouts";
import { decidePayout, requestWithdrawal } from "../../worker/domain/money/withdrawals";
import { makeAvailable } from "./earnings-fixtures";
import { api, createUser, postJson } from "./factories";
import { createVerifiedCreator, newKey } from "./money-fixtures";
import { createAdmin } from "./moderation-support";

type Creator = Awaited<ReturnType<typeof createVerifiedCreator>>;

const put = (path: string, body: unknown, token: string) =>
  api(path, { method: "PUT", body: JSON.stringify(body), token });
const paypal = (creator: Creator, email = "payouts@example.com") =>
  put(
    "/me/payout-method",
    { kind: "paypal", paypalEmail: email, paypalEmailConfirmation: email, password: creator.input.password },
    creator.token,
  );
const withdraw = (
  creator: Creator,
  amountCents: number,
  password: string | undefined = creator.input.password,
  idempotencyKey = newKey(),
) => postJson("/payouts", { amountCents, password, idempotencyKey }, { token: creator.token });

/** A creator with $100 available and a PayPal payout method. */
async function readyCreator() {
  const creator = await createVerifiedCreator();
  await makeAvailable(creator.user.userId, 10_000);
  expect((await paypal(creator)).status).toBe(200);
  return creator;
}

const errorOf = async (response: Response) =>
  (await response.json()) as { message: string; errors: Record<string, string[]> };
const cleanBooks = { unbalancedTransfers: 0, openTransfers: 0, negativeAccounts: 0, driftedAccounts: 0, totalCents: 0 };

describe("payout methods", () => {
  it("needs the PayPal address twice, the same, and the password", async () => {
    const creator = await createVerifiedCreator();
    const base = { kind: "paypal", paypalEmail: "me@example.com", paypalEmailConfirmation: "me@example.com" };
    const differ = await put(
      "/me/payout-method",
      { ...base, paypalEmailConfirmation: "me@example.org", password: creator.input.password },
      creator.token,
    );
    expect(differ.status).toBe(422);
    expect((await errorOf(differ)).errors.paypalEmailConfirmation).toEqual(["The email addresses do not match."]);
    const missing = await put("/me/payout-method", base, creator.token);
    expect((await errorOf(missing)).errors.password).toEqual(["Please enter your password"]);
    const wrong = await put("/me/payout-method", { ...base, password: "not my password" }, creator.token);
    expect((await errorOf(wrong)).errors.password).toEqual(["Wrong password"]);
    expect((await (await api("/me/payout-method", { token: creator.token })).json()) as unknown).toEqual({
      method: null,
    });

    const saved = await put(
      "/me/payout-method",
      { ...base, paypalEmailConfirmation: " ME@example.com ", password: creator.input.password },
      creator.token,
    );
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { method: { destination: string } }).method.destination).toBe("m•••@example.com");
  });

  it("stores bank details normalised, shows them masked, and refuses bad ones", async () => {
    const creator = await createVerifiedCreator();
    const bank = {
      kind: "bank",
      accountHolder: "Mia Rivers",
      bankName: "Example Bank",
      accountNumber: "DE89 3704 0044 0532 0130 00",
      routingCode: "cobadeffxxx",
      country: "Germany",
      password: creator.input.password,
    };
    const bad = await put(
      "/me/payout-method",
      { ...bank, accountNumber: "12", routingCode: "??", accountHolder: " " },
      creator.token,
    );
    expect(bad.status).toBe(422);
    expect(Object.keys((await errorOf(bad)).errors).sort()).toEqual(["accountHolder", "accountNumber", "routingCode"]);
    const saved = await put("/me/payout-method", bank, creator.token);
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { method: object }).method).toMatchObject({
      kind: "bank",
      destination: "•••• 3000",
      bankName: "Example Bank",
      country: "Germany",
    });
    const row = await env.DB.prepare(
      "SELECT bank_account_number, bank_routing_code FROM payout_methods WHERE user_id = ?",
    )
      .bind(creator.user.userId)
      .first();
    expect(row).toEqual({ bank_account_number: "DE89370400440532013000", bank_routing_code: "COBADEFFXXX" });
  });

  it("belongs to creators", async () => {
    const member = await createUser();
    const response = await put(
      "/me/payout-method",
      { kind: "paypal", paypalEmail: "a@b.co", paypalEmailConfirmation: "a@b.co", password: member.input.password },
      member.token,
    );
    expect(response.status).toBe(403);
  });
});

describe("withdrawal requests", () => {
  it("refuses a missing or wrong password, less than $50, more than available and no payout method", async () => {
    const creator = await createVerifiedCreator();
    await makeAvailable(creator.user.userId, 10_000);
    expect((await errorOf(await withdraw(creator, 6000))).message).toBe("Add a payout method first.");
    await paypal(creator);
    expect((await errorOf(await withdraw(creator, 6000, ""))).errors.password).toEqual(["Please enter your password"]);
    expect((await errorOf(await withdraw(creator, 6000, "wrong password"))).errors.password).toEqual([
      "Wrong password",
    ]);
    const small = await withdraw(creator, 2000);
    expect(small.status).toBe(422);
    expect((await errorOf(small)).errors.amountCents).toEqual(["The minimum withdrawal is $50.00."]);
    expect((await errorOf(await withdraw(creator, 0))).errors.amountCents).toEqual([
      "The minimum withdrawal is $50.00.",
    ]);
    const large = await withdraw(creator, 10_001);
    expect(large.status).toBe(422);
    expect((await errorOf(large)).errors.amountCents).toEqual(["You can withdraw at most $100.00."]);
    // The most a form's field can hold is still an amount: over what is available, not an "Invalid value".
    expect((await errorOf(await withdraw(creator, 999_999_999))).errors.amountCents).toEqual([
      "You can withdraw at most $100.00.",
    ]);
    expect((await errorOf(await withdraw(creator, -5000))).errors.amountCents).toEqual([
      "The minimum withdrawal is $50.00.",
    ]);
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ available: 10_000 });
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM payouts WHERE creator_id = ?")
        .bind(creator.user.userId)
        .first<{ n: number }>())!.n,
    ).toBe(0);
  });

  it("accepts one request at a time, replays a key, and lists the history masked", async () => {
    const creator = await readyCreator();
    const key = newKey();
    const first = await withdraw(creator, 6000, undefined, key);
    expect(first.status).toBe(200);
    const { payout } = (await first.json()) as { payout: { id: number; status: string; destination: string } };
    expect(payout).toMatchObject({ status: "requested", destination: "p•••@example.com" });
    const replay = (await (await withdraw(creator, 6000, undefined, key)).json()) as {
      payout: { id: number };
      replayed: boolean;
    };
    expect(replay).toMatchObject({ payout: { id: payout.id }, replayed: true });
    const second = await withdraw(creator, 5000);
    expect(second.status).toBe(409);
    expect((await errorOf(second)).message).toMatch(/already have a withdrawal request pending/);
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ available: 4000 });

    const history = (await (await api("/payouts", { token: creator.token })).json()) as {
      payouts: { id: number; destination: string }[];
      nextCursor: number | null;
    };
    expect(history).toEqual({
      payouts: [expect.objectContaining({ id: payout.id, destination: "p•••@example.com" })],
      nextCursor: null,
    });
    expect(JSON.stringify(history)).not.toContain("payouts@example.com");
  });

  it("pages a long history, newest first", async () => {
    const creator = await readyCreator();
    const admin = await createAdmin();
    const [creatorRow, adminRow] = [
      (await findUserById(env.DB, creator.user.userId))!,
      (await findUserById(env.DB, admin.user.userId))!,
    ];
    const ctx = testContext();
    const ids: number[] = [];
    for (let round = 0; round < PAYOUTS_PAGE_SIZE + 2; round++) {
      const { payout } = await requestWithdrawal(ctx, creatorRow, {
        amountCents: 5000,
        password: creator.input.password,
        idempotencyKey: newKey(),
      });
      await decidePayout(ctx, adminRow, payout.id, { decision: "rejected", reason: "Try again" });
      ids.push(payout.id);
    }
    const first = (await (await api("/payouts", { token: creator.token })).json()) as {
      payouts: { id: number }[];
      nextCursor: number;
    };
    expect(first.payouts.map((payout) => payout.id)).toEqual(ids.slice().reverse().slice(0, PAYOUTS_PAGE_SIZE));
    const second = (await (await api(`/payouts?cursor=${first.nextCursor}`, { token: creator.token })).json()) as {
      payouts: { id: number }[];
      nextCursor: number | null;
    };
    expect(second).toEqual({
      payouts: ids
        .slice(0, 2)
        .reverse()
        .map((id) => expect.objectContaining({ id, status: "rejected", rejectionReason: "Try again" })),
      nextCursor: null,
    });
  });

  it("lets exactly one of three concurrent requests through", async () => {
    const creator = await readyCreator();
    const responses = await Promise.all([withdraw(creator, 5000), withdraw(creator, 5000), withdraw(creator, 5000)]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409]);
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ available: 5000 });
    expect(await auditLedger(env.DB)).toEqual(cleanBooks);
  });

  it("keeps the method a payout was requested with when the creator changes it", async () => {
    const creator = await readyCreator();
    await withdraw(creator, 5000);
    await paypal(creator, "elsewhere@example.org");
    const admin = await createAdmin();
    const queue = (await (await api("/admin/payouts", { token: admin.token })).json()) as {
      payouts: { creator: { id: number }; destination: object }[];
    };
    expect(queue.payouts.find((item) => item.creator.id === creator.user.userId)?.destination).toEqual({
      kind: "paypal",
      paypalEmail: "payouts@example.com",
    });
  });
});

describe("the admin's payouts queue", () => {
  it("marks a payout paid: the money leaves through the provider, the creator is told, a second decision is refused", async () => {
    const creator = await readyCreator();
    const { payout } = (await (await withdraw(creator, 7000)).json()) as { payout: { id: number } };
    const admin = await createAdmin();
    const queue = (await (await api("/admin/payouts", { token: admin.token })).json()) as {
      payouts: { id: number; amountCents: number; creator: { username: string } }[];
    };
    expect(queue.payouts).toContainEqual(
      expect.objectContaining({
        id: payout.id,
        amountCents: 7000,
        creator: expect.objectContaining({ username: creator.user.username }),
      }),
    );
    const clearing = await balanceOf(env.DB, PROVIDER_CLEARING);

    const paid = await postJson(`/admin/payouts/${payout.id}/paid`, {}, { token: admin.token });
    expect(paid.status).toBe(200);
    expect(((await paid.json()) as { payout: { status: string } }).payout.status).toBe("paid");
    expect(await balanceOf(env.DB, PROVIDER_CLEARING)).toBe(clearing + 7000);
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ available: 3000 });
    const notice = await env.DB.prepare("SELECT params FROM notifications WHERE user_id = ? AND kind = 'payout'")
      .bind(creator.user.userId)
      .first<{ params: string }>();
    expect(JSON.parse(notice!.params)).toMatchObject({ status: "paid", amountCents: 7000 });

    expect((await postJson(`/admin/payouts/${payout.id}/paid`, {}, { token: admin.token })).status).toBe(409);
    expect(
      (await postJson(`/admin/payouts/${payout.id}/reject`, { reason: "late" }, { token: admin.token })).status,
    ).toBe(409);
    const after = (await (await api("/admin/payouts", { token: admin.token })).json()) as { payouts: { id: number }[] };
    expect(after.payouts.map((item) => item.id)).not.toContain(payout.id);
    expect(await auditLedger(env.DB)).toEqual(cleanBooks);
  });

  it("rejects with a reason: the money returns to available and a new request can be made", async () => {
    const creator = await readyCreator();
    const { payout } = (await (await withdraw(creator, 8000)).json()) as { payout: { id: number } };
    const admin = await createAdmin();
    const noReason = await postJson(`/admin/payouts/${payout.id}/reject`, { reason: "  " }, { token: admin.token });
    expect(noReason.status).toBe(422);
    expect((await errorOf(noReason)).errors.reason).toEqual(["Give a reason."]);
    const tooLong = await postJson(
      `/admin/payouts/${payout.id}/reject`,
      { reason: "x".repeat(501) },
      { token: admin.token },
    );
    expect(tooLong.status).toBe(422);
    expect((await errorOf(tooLong)).errors.reason).toEqual(["Invalid value"]);
    const rejected = await postJson(
      `/admin/payouts/${payout.id}/reject`,
      { reason: "The PayPal account is closed." },
      { token: admin.token },
    );
    expect(rejected.status).toBe(200);
    expect(((await rejected.json()) as { payout: object }).payout).toMatchObject({
      status: "rejected",
      rejectionReason: "The PayPal account is closed.",
    });
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ available: 10_000 });
    expect((await withdraw(creator, 10_000)).status).toBe(200);
    expect(await auditLedger(env.DB)).toEqual(cleanBooks);
  });

  it("documents the reason's rule the server applies: 1 to 500 characters", async () => {
    const doc = (await (await api("/openapi.json")).json()) as {
      paths: Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
    };
    const body = doc.paths["/admin/payouts/{id}/reject"]!.post.requestBody.content["application/json"]!.schema;
    expect(body).toMatchObject({ properties: { reason: { minLength: 1, maxLength: 500 } }, required: ["reason"] });
  });

  it("lets one of two admins deciding at once win", async () => {
    const creator = await readyCreator();
    const { payout } = (await (await withdraw(creator, 6000)).json()) as { payout: { id: number } };
    const [first, second] = [await createAdmin(), await createAdmin()];
    const responses = await Promise.all([
      postJson(`/admin/payouts/${payout.id}/paid`, {}, { token: first.token }),
      postJson(`/admin/payouts/${payout.id}/reject`, { reason: "Duplicate account" }, { token: second.token }),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    const available = (await balancesOf(env.DB, creator.user.userId)).available;
    expect([4000, 10_000]).toContain(available);
    expect(await auditLedger(env.DB)).toEqual(cleanBooks);
  });

  it("does not exist for anyone but admins", async () => {
    const creator = await readyCreator();
    const { payout } = (await (await withdraw(creator, 5000)).json()) as { payout: { id: number } };
    expect((await api("/admin/payouts", { token: creator.token })).status).toBe(404);
    expect((await postJson(`/admin/payouts/${payout.id}/paid`, {}, { token: creator.token })).status).toBe(404);
    expect((await postJson(`/admin/payouts/${payout.id}/paid`, {})).status).toBe(404);
    const admin = await createAdmin();
    expect((await postJson("/admin/payouts/999999/paid", {}, { token: admin.token })).status).toBe(404);
    expect(await balancesOf(env.DB, creator.user.userId)).toMatchObject({ available: 5000 });
  });
});

describe("bad input to the money endpoints of creators and admins", () => {
  const junk: [string, string][] = [
    ["application/json", '{"oops": '],
    ["application/json", "[]"],
    ["application/json", "null"],
    ["application/json", "{}"],
    ["text/plain", "amountCents=5000"],
    ["application/json", JSON.stringify({ amountCents: "5000", password: "x", idempotencyKey: newKey() })],
    ["application/json", JSON.stringify({ amountCents: 5000.5, password: "x", idempotencyKey: newKey() })],
    ["application/json", JSON.stringify({ amountCents: -5000, password: "x", idempotencyKey: "short" })],
    ["application/json", JSON.stringify({ kind: "cheque", paypalEmail: "a@b.co" })],
    ["application/json", JSON.stringify({ kind: "paypal", paypalEmail: ["a@b.co"], paypalEmailConfirmation: {} })],
    ["application/json", JSON.stringify({ kind: "bank", accountHolder: "x".repeat(10_000) })],
    ["application/json", JSON.stringify({ reason: { nested: true } })],
  ];

  it("answers 4xx in the error shape and moves no money", async () => {
    const creator = await readyCreator();
    const admin = await createAdmin();
    const { payout } = (await (await withdraw(creator, 5000)).json()) as { payout: { id: number } };
    const books = await balancesOf(env.DB, creator.user.userId);
    const targets: [string, string, string][] = [
      ["POST", "/payouts", creator.token],
      ["PUT", "/me/payout-method", creator.token],
      ["POST", `/admin/payouts/${payout.id}/reject`, admin.token],
      ["GET", "/payouts?cursor=abc", creator.token],
    ];
    for (const [method, path, token] of targets) {
      for (const [contentType, body] of junk) {
        const response = await api(path, {
          method,
          token,
          headers: { "Content-Type": contentType },
          ...(method === "GET" ? {} : { body }),
        });
        expect([409, 413, 415, 422], `${method} ${path} ${body}`).toContain(response.status);
        expect(typeof ((await response.json()) as { message: unknown }).message).toBe("string");
      }
    }
    expect(await balancesOf(env.DB, creator.user.userId)).toEqual(books);
    expect(
      (await env.DB.prepare("SELECT status FROM payouts WHERE id = ?").bind(payout.id).first<{ status: string }>())!
        .status,
    ).toBe("requested");
    expect(await auditLedger(env.DB)).toEqual(cleanBooks);
  });
});
