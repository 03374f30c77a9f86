import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { PaidMessageSchema } from "@shared/contracts/messages";
import {
  EarningsOverviewSchema,
  PaymentPageSchema,
  PaymentResultSchema,
  PayoutPageSchema,
} from "@shared/contracts/money";
import { FanPageSchema } from "@shared/contracts/subscriptions";
import type { Shape } from "@shared/shape";
import { earningsOverviewShape, fanPageShape, payoutPageShape } from "../../app/components/dashboard/dashboard-shapes";
import { paymentPageShape } from "../../app/components/wallet/wallet-shapes";
import { tipRequest } from "../../app/components/money/tip-request";
import { sampleMessage } from "../support/sample-message";

const payment = {
  id: 7,
  kind: "tip",
  amountCents: 500,
  status: "succeeded",
  createdAt: "2025-03-01T10:00:00.000Z",
  creator: { username: "mia", name: "Mia", avatarUrl: "/a.png" },
  postId: 3,
  note: null,
  failureReason: null,
  checkoutPath: null,
};
const without = (value: Record<string, unknown>, key: string) => {
  const copy = { ...value };
  delete copy[key];
  return copy;
};

const day = { subscription: 1, tip: 2, post: 3, message: 4, live: 5 };
const totals = { ...day, total: 15 };

/** Each answer, a sample of it, the list inside it whose items lose one field at a time. */
const cases: [string, z.ZodType, Shape<unknown>, Record<string, unknown>, string][] = [
  ["payments", PaymentPageSchema, paymentPageShape, { payments: [payment], nextCursor: 7 }, "payments"],
  [
    "payouts",
    PayoutPageSchema,
    payoutPageShape,
    {
      payouts: [
        {
          id: 1,
          amountCents: 5000,
          status: "rejected",
          method: "bank",
          destination: "•••• 1234",
          rejectionReason: "Wrong account",
          createdAt: "2025-03-01T10:00:00.000Z",
          decidedAt: "2025-03-02T10:00:00.000Z",
        },
      ],
      nextCursor: null,
    },
    "payouts",
  ],
  [
    "fans",
    FanPageSchema,
    fanPageShape,
    {
      fans: [
        {
          userId: 2,
          username: "ann",
          name: "Ann",
          avatarUrl: "/b.png",
          since: "2025-03-01",
          period: "month",
          priceCents: 999,
          bundleMonths: 3,
        },
      ],
      nextCursor: "abc",
    },
    "fans",
  ],
  [
    "earnings",
    EarningsOverviewSchema,
    earningsOverviewShape,
    {
      totals: { today: totals, last7Days: totals, last30Days: totals },
      days: [{ date: "2025-03-01", ...day }],
      pendingCents: 100,
      availableCents: 200,
      releases: [{ date: "2025-03-08", cents: 100 }],
      feePercent: 20,
    },
    "days",
  ],
];

describe("the wallet's and the dashboard's checks of the money answers", () => {
  it.each(cases)(
    "accept the contract's %s and refuse what it refuses, field by field",
    (_, schema, shape, sample, list) => {
      expect(shape(sample)).toEqual(schema.parse(sample));
      const item = (sample[list] as Record<string, unknown>[])[0]!;
      const broken = [
        ...Object.keys(sample).map((key) => without(sample, key)),
        // checkoutPath has a default (the next test).
        ...Object.keys(item)
          .filter((key) => key !== "checkoutPath")
          .map((key) => ({ ...sample, [list]: [without(item, key)] })),
      ];
      for (const answer of broken) {
        expect(schema.safeParse(answer).success, JSON.stringify(answer)).toBe(false);
        expect(() => shape(answer), JSON.stringify(answer)).toThrow();
      }
    },
  );

  it("read a payment saved for offline reading before it had a checkout path as having none", () => {
    const page = { payments: [without(payment, "checkoutPath")], nextCursor: null };
    expect(PaymentPageSchema.parse(page).payments[0]!.checkoutPath).toBeNull();
    expect(paymentPageShape(page).payments[0]!.checkoutPath).toBeNull();
  });
});

describe("the tip dialog's request", () => {
  // A tip in a conversation answers with the message that carries it.
  const message = { ...sampleMessage, text: "Thanks!", tipCents: 500, media: [] };
  const charged = { payment, replayed: false };
  const cases = [
    [{ postId: 3 }, "/posts/3/tips", PaymentResultSchema, charged],
    [{ username: "mia x" }, "/users/mia%20x/tips", PaymentResultSchema, charged],
    [{ liveStreamId: 8 }, "/live/8/tips", PaymentResultSchema, charged],
    [{ conversationId: 4 }, "/conversations/4/tips", PaidMessageSchema, { ...charged, message }],
  ] as const;

  it.each(cases)(
    "to %o takes the answer its contract describes and refuses it without any one field",
    (...testCase) => {
      const [target, path, schema, answer] = testCase;
      const { path: sentTo, check } = tipRequest(target);
      expect(sentTo).toBe(path);
      expect(check(answer)).toEqual(schema.parse(answer));
      const broken = [
        ...Object.keys(answer).map((key) => without(answer, key)),
        ...Object.keys(payment)
          .filter((key) => key !== "checkoutPath")
          .map((key) => ({ ...answer, payment: without(payment, key) })),
      ];
      for (const sample of broken) {
        expect(schema.safeParse(sample).success, JSON.stringify(sample)).toBe(false);
        expect(() => check(sample), JSON.stringify(sample)).toThrow();
      }
    },
  );
});
