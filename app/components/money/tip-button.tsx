import { lazy, Suspense, useState } from "react";
import type { PaidMessage } from "@shared/contracts/messages";
import type { PaymentResult } from "@shared/contracts/money";
import { useAttemptKey } from "~/components/money/attempt-key";

export type TipTarget =
  { postId: number } | { username: string } | { conversationId: number } | { liveStreamId: number };

/** What the server answers to a tip: its payment, and in a conversation the message that carries it. */
export type TipAnswer = PaymentResult | PaidMessage;

// The dialog's code is fetched when a Tip button is first pressed: most feed views never open it, and the first
// /home stays within QUALITY.md's JavaScript budget.
const TipDialog = lazy(() => import("~/components/money/tip-dialog").then((module) => ({ default: module.TipDialog })));

/**
 * "Send a tip" (on a post or in a conversation) or "Tip" (on a profile): the button and its dialog. Each opening is one attempt
 * with its own idempotency key, kept if Send is pressed again after a failure.
 */
export function TipButton({
  target,
  creatorName,
  className,
  children,
  onTipped,
}: {
  target: TipTarget;
  creatorName: string;
  className: string;
  children: React.ReactNode;
  /** Called with the server's answer once the tip went through (a conversation's thread shows its message). */
  onTipped?: (answer: TipAnswer) => void;
}) {
  const [open, setOpen] = useState(false);
  const attempt = useAttemptKey();
  return (
    <>
      <button
        type="button"
        className={className}
        data-needs-js
        onClick={() => {
          attempt.renew();
          setOpen(true);
        }}
      >
        {children}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <TipDialog
            target={target}
            creatorName={creatorName}
            attemptKey={attempt.key}
            onClose={() => setOpen(false)}
            onTipped={onTipped}
          />
        </Suspense>
      ) : null}
    </>
  );
}
