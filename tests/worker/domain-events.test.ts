import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DomainEvent } from "../../worker/domain/events";
import { createPublisher, type DeliveryAdapter } from "../../worker/events/publisher";
import { deliverToSockets } from "../../worker/realtime/socket-delivery";
import { findUserById } from "../../worker/domain/accounts/users";
import { sendTip } from "../../worker/domain/money/send-tip";
import { likePost } from "../../worker/domain/interactions/like-post";
import { changePassword } from "../../worker/domain/accounts/change-password";
import { markNotificationsRead } from "../../worker/domain/notifications/notifications";
import { testContext } from "./domain-context";
import { createUser, postJson } from "./factories";
import { createFan, createVerifiedCreator, fundWallet, newKey } from "./money-fixtures";
import { createPost, follow } from "./timeline-fixtures";

const userRow = async (id: number) => (await findUserById(env.DB, id))!;

/** Collects the deferred work of a publisher so the test can wait for every delivery. */
function deferred() {
  const pending: Promise<unknown>[] = [];
  return { defer: (work: Promise<unknown>) => void pending.push(work), settle: () => Promise.all(pending) };
}

afterEach(() => vi.restoreAllMocks());

describe("the publish seam", () => {
  it("hands each event to every adapter after the caller returns, and a failing adapter never stops another", async () => {
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const failing: DeliveryAdapter = async () => {
      throw new Error("push service down");
    };
    const recording: DeliveryAdapter = async (_env, event) => {
      await gate;
      seen.push(event.type);
    };
    const { defer, settle } = deferred();
    const publish = createPublisher(env, defer, [failing, recording]);

    publish({ type: "UpdatesChanged", userIds: [1] });
    // Nothing is delivered while the command is still running.
    expect(seen).toEqual([]);
    release();
    await settle();
    expect(seen).toEqual(["UpdatesChanged"]);
    expect(warnings).toHaveBeenCalledOnce();
  });

  it("commands announce what they did, to whom, only once their write has committed", async () => {
    const creator = await createVerifiedCreator();
    const fan = await createFan();
    await fundWallet(fan.user.userId, 5_000);
    const fanRow = await userRow(fan.user.userId);

    const tip = testContext();
    const input = { amountCents: 500, idempotencyKey: newKey() };
    await sendTip(tip, fanRow, { username: creator.user.username }, input);
    // With the devices that want it pushed, read in the tip's batch (none here).
    expect(tip.published).toEqual([
      { type: "NotificationCreated", userId: creator.user.userId, kind: "tip", pushJobs: [] },
    ]);
    // A replay moves no money and tells nobody again.
    await sendTip(tip, fanRow, { username: creator.user.username }, input);
    expect(tip.published).toHaveLength(1);

    const like = testContext();
    const post = await createPost(creator.user.userId);
    await likePost(like, fan.user.userId, post.id);
    // Likewise with the devices read in the like's batch; liked again, nothing new to tell.
    expect(like.published).toEqual([
      { type: "NotificationCreated", userId: creator.user.userId, kind: "like", pushJobs: [] },
    ]);
    await likePost(like, fan.user.userId, post.id);
    expect(like.published).toHaveLength(1);
    // The author liking their own post notifies nobody.
    const ownLike = testContext();
    await likePost(ownLike, creator.user.userId, post.id);
    expect(ownLike.published).toEqual([]);

    const read = testContext();
    expect(await markNotificationsRead(read, creator.user.userId)).toBe(2);
    expect(read.published).toEqual([{ type: "UpdatesChanged", userIds: [creator.user.userId] }]);
    await markNotificationsRead(read, creator.user.userId);
    expect(read.published).toHaveLength(1);
  });

  it("a password change announces the other sessions it ended, never the current one", async () => {
    const member = await createUser();
    const other = (await (
      await postJson("/login", { login: member.input.email, password: member.input.password })
    ).json()) as { token: string };
    expect(other.token).toBeTruthy();
    const sessions = await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ? ORDER BY id")
      .bind(member.user.userId)
      .all<{ id: number }>();
    const [current, ended] = sessions.results.map((row) => row.id);
    const ctx = testContext();
    await changePassword(
      ctx,
      { user: await userRow(member.user.userId), sessionId: current! },
      {
        password: member.input.password,
        newPassword: "a-new-long-passphrase-2026",
        newPasswordConfirmation: "a-new-long-passphrase-2026",
      },
    );
    expect(ctx.published).toEqual([{ type: "SessionsEnded", userId: member.user.userId, sessionIds: [ended] }]);
  });
});

describe("the socket adapter", () => {
  it("sends NewUpdate to the author's followers when a post is published, and to nobody else", async () => {
    const creator = await createVerifiedCreator();
    const follower = await createUser();
    const stranger = await createUser();
    await follow(follower.user.userId, creator.user.userId);

    const reached = new Map<number, number>();
    const counting = { ...env, USER_CHANNEL: countingNamespace(reached) } as unknown as typeof env;
    await deliverToSockets(counting, { type: "PostPublished", authorId: creator.user.userId } satisfies DomainEvent);
    expect([...reached.keys()].sort()).toEqual([creator.user.userId, follower.user.userId].sort());
    expect(reached.has(stranger.user.userId)).toBe(false);
  });

  it("closes exactly the ended sessions' sockets", async () => {
    const member = await createUser();
    const calls: number[][] = [];
    const recording = {
      ...env,
      USER_CHANNEL: recordingDisconnects(member.user.userId, calls),
    } as unknown as typeof env;
    await deliverToSockets(recording, { type: "SessionsEnded", userId: member.user.userId, sessionIds: [7, 9] });
    await deliverToSockets(recording, { type: "SessionsEnded", userId: member.user.userId, sessionIds: [11] });
    expect(calls).toEqual([[7, 9], [11]]);
  });
});

/** A USER_CHANNEL namespace whose stubs count broadcasts per user instead of reaching a Durable Object. */
function countingNamespace(reached: Map<number, number>) {
  return {
    idFromName: (name: string) => name,
    get: (name: string) => ({
      broadcast: async () => {
        const userId = Number(name.replace("updates.", ""));
        reached.set(userId, (reached.get(userId) ?? 0) + 1);
        return 0;
      },
    }),
  };
}

function recordingDisconnects(userId: number, calls: number[][]) {
  return {
    idFromName: (name: string) => name,
    get: (name: string) => {
      expect(name).toBe(`updates.${userId}`);
      return {
        disconnectSessions: async (forUser: number, sessionIds: number[]) => {
          expect(forUser).toBe(userId);
          calls.push(sessionIds);
        },
      };
    },
  };
}
