import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { MAX_LIVE_CHAT_LENGTH } from "@shared/contracts/live-limits";
import type { LiveClientFrame } from "@shared/live-events";
import { formatCents } from "@shared/money";
import type { FeedItem } from "~/components/live/live-room-state";
import { LocalTime } from "~/components/local-time";

/**
 * The live chat: lines and tips as they arrive (newest at the bottom, kept in view unless the person scrolled up),
 * and the line to write. The creator sees Mute and Remove on each viewer's line.
 */
export function LiveChat({
  feed,
  send,
  selfId,
  creatorId,
  moderate,
  muted,
  refused,
  canWrite,
  onDark = false,
  className = "",
}: {
  feed: FeedItem[];
  send: (frame: LiveClientFrame) => void;
  selfId: number;
  creatorId: number;
  /** The creator's chat: Mute/Unmute and Remove next to each viewer's lines. */
  moderate: boolean;
  muted: boolean;
  refused: string | null;
  canWrite: boolean;
  /** Drawn on the always-dark viewer screen (colours chosen for it, whatever the system theme). */
  onDark?: boolean;
  className?: string;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [text, setText] = useState("");
  const [mutedIds, setMutedIds] = useState<ReadonlySet<number>>(new Set());
  const list = useRef<HTMLOListElement>(null);
  const pinned = useRef(true);

  useEffect(() => {
    const element = list.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [feed]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const line = text.trim();
    if (!line) return;
    send({ type: "chat", text: line.slice(0, MAX_LIVE_CHAT_LENGTH) });
    setText("");
  }

  function toggleMute(userId: number) {
    const next = !mutedIds.has(userId);
    send({ type: "mute", userId, muted: next });
    setMutedIds((held) => {
      const copy = new Set(held);
      if (next) copy.add(userId);
      else copy.delete(userId);
      return copy;
    });
  }

  return (
    <section aria-labelledby={`${id}-title`} className={`flex min-h-0 flex-col ${className}`}>
      <h2 id={`${id}-title`} className="sr-only">
        {t("Live chat")}
      </h2>
      <ol
        ref={list}
        aria-live="polite"
        aria-relevant="additions"
        className="min-h-0 flex-1 space-y-1 overflow-y-auto p-3 text-sm"
        onScroll={(event) => {
          const element = event.currentTarget;
          pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
        }}
        data-live-chat
      >
        {feed.map((item) =>
          item.kind === "tip" ? (
            <li
              key={item.key}
              className={`rounded-lg bg-amber-400/20 px-2 py-1 ${onDark ? "text-amber-100" : "text-amber-950 dark:text-amber-100"}`}
              data-live-tip
            >
              <strong>{item.tip.user.name}</strong>{" "}
              {t("tipped {{amount}}", { amount: formatCents(item.tip.amountCents, i18n.language) })}
              {item.tip.note ? (
                <span dir="auto" className="block break-words">
                  {item.tip.note}
                </span>
              ) : null}
            </li>
          ) : (
            <li key={item.key} className="group flex items-start gap-2" data-live-line>
              <p className="min-w-0 flex-1 break-words">
                <strong
                  className={
                    item.line.user.id === creatorId
                      ? onDark
                        ? "text-brand-300"
                        : "text-brand-600 dark:text-brand-300"
                      : undefined
                  }
                >
                  {item.line.user.name}
                </strong>{" "}
                <span dir="auto">{item.line.text}</span>
              </p>
              {moderate && item.line.user.id !== selfId ? (
                <span className="flex shrink-0 gap-1">
                  <button
                    type="button"
                    className="rounded px-1 text-xs underline"
                    aria-label={
                      mutedIds.has(item.line.user.id)
                        ? t("Unmute {{name}}", { name: item.line.user.name })
                        : t("Mute {{name}}", { name: item.line.user.name })
                    }
                    onClick={() => toggleMute(item.line.user.id)}
                  >
                    {mutedIds.has(item.line.user.id) ? t("Unmute") : t("Mute")}
                  </button>
                  <button
                    type="button"
                    className="rounded px-1 text-xs text-red-700 underline dark:text-red-400"
                    aria-label={t("Remove {{name}} from the stream", { name: item.line.user.name })}
                    onClick={() => {
                      if (window.confirm(t("Remove {{name}} from the stream?", { name: item.line.user.name })))
                        send({ type: "remove", userId: item.line.user.id });
                    }}
                  >
                    {t("Remove")}
                  </button>
                </span>
              ) : null}
            </li>
          ),
        )}
      </ol>
      {refused || muted ? (
        <p role="status" className={`px-3 pb-1 text-sm ${onDark ? "text-red-300" : "text-red-700 dark:text-red-300"}`}>
          {refused ?? t("The creator has muted you in this chat.")}
        </p>
      ) : null}
      {canWrite ? (
        <form
          onSubmit={submit}
          className={`flex gap-2 border-t p-2 ${onDark ? "border-slate-800" : "border-slate-200 dark:border-slate-800"}`}
        >
          <label htmlFor={`${id}-line`} className="sr-only">
            {t("Say something")}
          </label>
          <input
            id={`${id}-line`}
            className="input"
            autoComplete="off"
            maxLength={MAX_LIVE_CHAT_LENGTH}
            placeholder={t("Say something")}
            value={text}
            disabled={muted}
            onChange={(event) => setText(event.target.value)}
          />
          <button type="submit" className="btn-primary w-auto" disabled={muted || !text.trim()}>
            {t("Send")}
          </button>
        </form>
      ) : null}
    </section>
  );
}

/** How far the tips are toward the creator's goal. */
export function GoalBar({ goal, tipsCents }: { goal: { cents: number; title: string | null }; tipsCents: number }) {
  const { t, i18n } = useTranslation();
  const share = Math.min(100, Math.floor((tipsCents * 100) / goal.cents));
  const money = (cents: number) => formatCents(cents, i18n.language);
  return (
    <div className="space-y-1" data-goal>
      <p className="flex justify-between gap-2 text-sm">
        <span dir="auto" className="truncate-text font-medium">
          {goal.title ?? t("Tip goal")}
        </span>
        <span>
          {t("{{raised}} of {{goal}}", { raised: money(Math.min(tipsCents, goal.cents)), goal: money(goal.cents) })}
        </span>
      </p>
      <div
        role="progressbar"
        aria-label={goal.title ?? t("Tip goal")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={share}
        className="h-2 overflow-hidden rounded-full bg-white/30"
      >
        <div className="h-full rounded-full bg-amber-400" style={{ width: `${share}%` }} />
      </div>
    </div>
  );
}

/** "LIVE · 12 watching · 03:25". */
export function LiveMeta({ viewers, startedAt, ended }: { viewers: number; startedAt: string; ended: boolean }) {
  const { t } = useTranslation();
  const elapsed = useElapsed(startedAt, !ended);
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      {ended ? null : (
        <span className="rounded bg-red-600 px-1.5 py-0.5 text-xs font-bold uppercase text-white">{t("Live")}</span>
      )}
      {ended ? (
        // Nobody is watching an ended stream: when it was (its peak is told with its tips below the picture).
        <LocalTime iso={startedAt} />
      ) : (
        <span data-viewer-count={viewers}>
          {viewers === 1 ? t("1 watching") : t("{{count}} watching", { count: viewers })}
        </span>
      )}
      {ended ? null : <span className="tabular-nums">{elapsed}</span>}
    </p>
  );
}

/** h:mm:ss or mm:ss since `iso`, ticking every second while `running`. */
function useElapsed(iso: string, running: boolean): string {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    if (!running) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  if (now === null) return "";
  return formatElapsed(now - Date.parse(iso));
}

export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, "0");
  const hours = Math.floor(seconds / 3600);
  const rest = `${two(Math.floor((seconds % 3600) / 60))}:${two(seconds % 60)}`;
  return hours > 0 ? `${hours}:${rest}` : rest;
}
