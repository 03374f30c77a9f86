import { Link, useNavigate } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type FormEvent, type PointerEvent } from "react";
import { useTranslation } from "react-i18next";
import type { StoryReel, StoryView } from "@shared/contracts/stories";
import { STORY_PHOTO_MS } from "@shared/contracts/story-limits";
import { TipButton } from "~/components/money/tip-button";
import { Avatar } from "~/components/shell/avatar";
import { Icon } from "~/components/shell/icons";
import { VideoPlayer } from "~/components/media/video-player";
import { useSession } from "~/lib/session";
import { StoryOwnerTools } from "~/components/stories/story-owner-tools";
import {
  nextPosition,
  otherReel,
  previousPosition,
  startOf,
  type StoryPosition,
} from "~/components/stories/story-position";
import { likedShape, reelShape } from "~/components/stories/story-shapes";
import { failureText } from "~/lib/failure-text";

/** Held this long, a press pauses instead of moving on. */
const HOLD_MS = 250;
/** A move this far is a swipe, not a tap. */
const SWIPE_PX = 60;

/**
 * /stories: the full-screen viewer. Progress bars per story; a tap on the right (left in right-to-left languages)
 * or the arrow key goes on, the other side goes back; holding pauses; a swipe down or Escape closes, a swipe
 * sideways moves to the next or previous creator. After a creator's last story comes the next creator of the
 * bar (`queue`, fetched when reached). Each story is marked seen when shown. Videos play muted until "Tap for
 * sound". Fans like, reply (to the creator's messages) and tip; the creator sees the viewers list and manages.
 */
export function StoryViewer({
  initial,
  queue,
  selfId,
  closeTo,
  title,
}: {
  initial: StoryReel;
  queue: string[];
  selfId: number;
  closeTo: string;
  title: string | null;
}) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const navigate = useNavigate();
  const [reels, setReels] = useState<StoryReel[]>([initial]);
  const [waiting, setWaiting] = useState(queue);
  const [at, setAt] = useState<StoryPosition>({ reel: 0, story: startOf(initial) });
  const [held, setHeld] = useState(false);
  const [typing, setTyping] = useState(false);
  const [userPaused, setUserPaused] = useState(false);
  const [muted, setMuted] = useState(true);
  const [reply, setReply] = useState("");
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const reel = reels[at.reel]!;
  const story = reel.stories[at.story];
  const own = reel.creator.id === selfId;
  const rtl = i18n.dir() === "rtl";
  const paused = held || typing || userPaused;
  // How long ago, in the reader's language ("3 hr. ago"): known only in the browser (the server's clock and the
  // reader's differ), so the server renders none and hydration matches.
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => setNow(Date.now()), [at]);
  const age = (iso: string) => {
    if (now === null) return "";
    const minutes = Math.max(0, Math.round((now - Date.parse(iso)) / 60_000));
    const format = new Intl.RelativeTimeFormat(i18n.language, { numeric: "auto", style: "short" });
    if (minutes < 60) return format.format(-minutes, "minute");
    return minutes < 24 * 60
      ? format.format(-Math.round(minutes / 60), "hour")
      : format.format(-Math.round(minutes / (24 * 60)), "day");
  };

  const fill = useRef<HTMLSpanElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const elapsed = useRef(0);

  const close = useCallback(() => navigate(closeTo), [navigate, closeTo]);

  /**
   * Fetches the next queued creator with stories (skipping those whose stories are gone meanwhile) and appends
   * their reel; resolves with it, or null when none is left. One fetch at a time: a second caller (the preload,
   * then the person reaching the end) waits for the same one.
   */
  const inFlight = useRef<Promise<StoryReel | null> | null>(null);
  const loadMore = useCallback((): Promise<StoryReel | null> => {
    inFlight.current ??= (async () => {
      let rest = waiting;
      while (rest.length > 0) {
        const [username, ...others] = rest;
        rest = others;
        const next = await api
          .get(`/stories/users/${encodeURIComponent(username!)}`, reelShape, { quiet: true })
          .catch(() => null);
        if (next && next.stories.length > 0) {
          setWaiting(rest);
          setReels((list) => [...list, next]);
          return next;
        }
      }
      setWaiting([]);
      return null;
    })().finally(() => {
      inFlight.current = null;
    });
    return inFlight.current;
  }, [api, waiting]);

  const go = useCallback(
    (target: StoryPosition | "more" | "end" | null) => {
      if (target === null) return;
      if (target === "end") return close();
      if (target === "more") {
        void loadMore().then((next) => {
          if (next) setAt((current) => ({ reel: current.reel + 1, story: startOf(next) }));
          else close();
        });
        return;
      }
      setNote(null);
      setAt(target);
    },
    [close, loadMore],
  );
  const forward = useCallback(() => go(nextPosition(reels, at, waiting.length)), [go, reels, at, waiting.length]);
  const back = useCallback(() => go(previousPosition(reels, at)), [go, reels, at]);

  // A new story starts from zero; it is marked seen once shown (one's own are not counted).
  useEffect(() => {
    elapsed.current = 0;
    setUserPaused(false);
    if (!story || story.seen || own) return;
    api.post(`/stories/${story.id}/view`).catch((error: unknown) => console.warn("marking a story seen failed", error));
    setReels((list) =>
      list.map((item, index) =>
        index !== at.reel
          ? item
          : { ...item, stories: item.stories.map((s) => (s.id === story.id ? { ...s, seen: true } : s)) },
      ),
    );
    // Only when the story shown changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [story?.id]);

  // The progress of the story shown: a photo's 5 s, a video's own time. Paused while held, typing or a dialog is open.
  useEffect(() => {
    if (!story) return;
    let frame = 0;
    let last = performance.now();
    const tick = (now: number) => {
      const dialogOpen = document.querySelector("dialog[open]") !== null;
      const element = video.current;
      if (story.kind === "video" && element) {
        if (paused || dialogOpen) element.pause();
        else if (element.paused && !element.ended) void element.play().catch(() => undefined);
        const length = element.duration;
        if (fill.current)
          fill.current.style.width = `${Number.isFinite(length) && length > 0 ? (element.currentTime / length) * 100 : 0}%`;
      } else if (story.kind === "image") {
        if (!paused && !dialogOpen) elapsed.current += now - last;
        if (fill.current) fill.current.style.width = `${Math.min(100, (elapsed.current / STORY_PHOTO_MS) * 100)}%`;
        if (elapsed.current >= STORY_PHOTO_MS) return forward();
      }
      last = now;
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [story, paused, forward]);

  // Keys: arrows move (mirrored right to left), Space pauses, Escape closes; not while typing or in a dialog.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (document.querySelector("dialog[open]") || target?.closest("input, textarea")) return;
      if (event.key === "Escape") close();
      else if (event.key === "ArrowRight") (rtl ? back : forward)();
      else if (event.key === "ArrowLeft") (rtl ? forward : back)();
      else if (event.key === " " && !target?.closest("button, a")) {
        event.preventDefault();
        setUserPaused((value) => !value);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [close, forward, back, rtl]);

  // Preload: reaching a creator's last story fetches the next creator.
  useEffect(() => {
    if (at.reel === reels.length - 1 && at.story === reel.stories.length - 1 && waiting.length > 0) void loadMore();
  }, [at, reels.length, reel.stories.length, waiting.length, loadMore]);

  // Taps, holds and swipes on the picture.
  const press = useRef<{ x: number; y: number; timer: number; held: boolean } | null>(null);
  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    const timer = window.setTimeout(() => {
      if (press.current) press.current.held = true;
      setHeld(true);
    }, HOLD_MS);
    press.current = { x: event.clientX, y: event.clientY, timer, held: false };
  }
  function onPointerUp(event: PointerEvent<HTMLDivElement>) {
    const start = press.current;
    press.current = null;
    if (!start) return;
    window.clearTimeout(start.timer);
    setHeld(false);
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    if (dy > SWIPE_PX && Math.abs(dy) > Math.abs(dx)) return close();
    if (Math.abs(dx) > SWIPE_PX) return go(otherReel(reels, at, dx < 0 !== rtl ? 1 : -1, waiting.length));
    if (start.held) return;
    const box = event.currentTarget.getBoundingClientRect();
    const onLeftThird = event.clientX - box.left < box.width / 3;
    const onRightThird = event.clientX - box.left > (box.width * 2) / 3;
    if (rtl ? onRightThird : onLeftThird) back();
    else forward();
  }
  function onPointerCancel() {
    if (press.current) window.clearTimeout(press.current.timer);
    press.current = null;
    setHeld(false);
  }

  async function toggleLike(current: StoryView) {
    const liked = !current.liked;
    setReels((list) =>
      list.map((item) => ({ ...item, stories: item.stories.map((s) => (s.id === current.id ? { ...s, liked } : s)) })),
    );
    try {
      await api.put(`/stories/${current.id}/like`, { liked }, likedShape);
    } catch (error) {
      setReels((list) =>
        list.map((item) => ({
          ...item,
          stories: item.stories.map((s) => (s.id === current.id ? { ...s, liked: !liked } : s)),
        })),
      );
      setNote({ text: failureText(t, error), error: true });
    }
  }

  async function sendReply(event: FormEvent) {
    event.preventDefault();
    const text = reply.trim();
    if (!text) return;
    try {
      // The chat's checks are fetched when a reply is first sent: most viewers of /stories never reply.
      const { conversationShape } = await import("~/components/messages/chat-shapes");
      const conversation = await api.post("/conversations", { username: reel.creator.username }, conversationShape);
      // A reply never pays a per-message price on its own: a creator who charges refuses it, and says so.
      await api.post(`/conversations/${conversation.id}/messages`, {
        clientId: crypto.randomUUID(),
        text,
        maxPaidCents: 0,
      });
      setReply("");
      setNote({ text: t("Reply sent"), error: false });
    } catch (error) {
      setNote({ text: failureText(t, error), error: true });
    }
    setTyping(false);
  }

  function removeStory(id: number) {
    const rest = reel.stories.filter((s) => s.id !== id);
    if (rest.length === 0) return close();
    setReels((list) => list.map((item, index) => (index === at.reel ? { ...item, stories: rest } : item)));
    setAt({ reel: at.reel, story: Math.min(at.story, rest.length - 1) });
  }

  if (!story) return null;
  return (
    <main className="fixed inset-0 flex items-center justify-center bg-black text-white" data-story-viewer={story.id}>
      <h1 className="sr-only">{title ?? t("Stories of {{name}}", { name: reel.creator.name })}</h1>
      <div className="relative flex h-full w-full max-w-md flex-col overflow-hidden bg-slate-950 sm:h-[94vh] sm:rounded-2xl">
        <div
          className="absolute inset-0 touch-none select-none"
          onPointerDown={onPointerDown}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerCancel}
          onContextMenu={(event) => event.preventDefault()}
          data-story-stage
        >
          {story.kind === "image" ? (
            <img
              key={story.id}
              src={story.url}
              alt={story.text || t("Story of {{name}}", { name: reel.creator.name })}
              className="h-full w-full object-contain"
              draggable={false}
            />
          ) : (
            <VideoPlayer
              key={story.id}
              video={story}
              videoRef={video}
              controls={false}
              muted={muted}
              autoPlay
              preload="auto"
              onEnded={forward}
              className="h-full w-full object-contain"
              aria-label={story.text || t("Story of {{name}}", { name: reel.creator.name })}
            />
          )}
        </div>

        <div className="relative z-10 bg-gradient-to-b from-black/70 to-transparent p-3">
          <div className="flex gap-1" aria-hidden="true">
            {reel.stories.map((item, index) => (
              <span key={item.id} className="h-0.5 flex-1 overflow-hidden rounded bg-white/40">
                <span
                  ref={index === at.story ? fill : undefined}
                  className="block h-full bg-white"
                  style={{ width: index < at.story ? "100%" : "0%" }}
                />
              </span>
            ))}
          </div>
          <p className="sr-only" aria-live="polite">
            {t("Story {{index}} of {{count}}", { index: at.story + 1, count: reel.stories.length })}
          </p>
          <div className="mt-3 flex items-center gap-2">
            <Link to={`/${reel.creator.username}`} className="flex min-w-0 items-center gap-2">
              <Avatar url={reel.creator.avatarUrl} name={reel.creator.name} size="h-8 w-8" />
              <span dir="auto" className="truncate-text font-semibold">
                {own ? t("Your story") : reel.creator.name}
              </span>
            </Link>
            <time dateTime={story.createdAt} className="shrink-0 text-sm text-slate-300">
              {age(story.createdAt)}
            </time>
            <span className="flex-1" />
            {story.kind === "video" ? (
              <button
                type="button"
                className="rounded-full p-2 hover:bg-white/10"
                aria-pressed={!muted}
                onClick={() => setMuted((value) => !value)}
              >
                {muted ? t("Sound off") : t("Sound on")}
              </button>
            ) : null}
            <button
              type="button"
              className="rounded-full p-2 hover:bg-white/10"
              aria-pressed={paused}
              onClick={() => setUserPaused((value) => !value)}
              data-story-pause
            >
              {paused ? t("Play") : t("Pause")}
            </button>
            <button
              type="button"
              className="rounded-full p-2 hover:bg-white/10"
              aria-label={t("Close stories")}
              onClick={close}
            >
              <Icon name="close" />
            </button>
          </div>
        </div>

        <div className="pointer-events-none relative z-10 flex flex-1 items-center justify-between [&>button]:pointer-events-auto">
          {/* Keyboard and screen reader users move with these; a pointer taps anywhere on the picture. */}
          <button
            type="button"
            className="sr-only focus:not-sr-only focus:m-2 focus:rounded focus:bg-black/60 focus:p-2"
            onClick={back}
          >
            {t("Previous story")}
          </button>
          <button
            type="button"
            className="sr-only focus:not-sr-only focus:m-2 focus:rounded focus:bg-black/60 focus:p-2"
            onClick={forward}
          >
            {t("Next story")}
          </button>
        </div>

        {story.text ? (
          <p
            dir="auto"
            className="pointer-events-none absolute inset-x-4 bottom-32 z-10 whitespace-pre-line break-words rounded-lg bg-black/60 p-3 text-center text-lg font-semibold"
          >
            {story.text}
          </p>
        ) : null}

        <div className="relative z-10 space-y-2 bg-gradient-to-t from-black/80 to-transparent p-3">
          {story.kind === "video" && muted ? (
            <button
              type="button"
              className="mx-auto block rounded-full bg-black/70 px-4 py-2 text-sm font-semibold"
              onClick={() => setMuted(false)}
            >
              {t("Tap for sound")}
            </button>
          ) : null}
          {note ? (
            <p
              role={note.error ? "alert" : "status"}
              className={`rounded-lg px-3 py-2 text-sm ${note.error ? "bg-red-950/90 text-red-100" : "bg-black/70"}`}
            >
              {note.text}
            </p>
          ) : null}
          {own ? (
            <StoryOwnerTools
              story={story}
              onDeleted={removeStory}
              onChanged={(changed) =>
                setReels((list) =>
                  list.map((item) => ({
                    ...item,
                    stories: item.stories.map((s) => (s.id === changed.id ? changed : s)),
                  })),
                )
              }
            />
          ) : (
            <div className="flex items-center gap-2">
              <form className="flex min-w-0 flex-1 gap-2" onSubmit={(event) => void sendReply(event)}>
                <label className="min-w-0 flex-1">
                  <span className="sr-only">{t("Reply to {{name}}", { name: reel.creator.name })}</span>
                  <input
                    value={reply}
                    maxLength={1000}
                    onChange={(event) => setReply(event.target.value)}
                    onFocus={() => setTyping(true)}
                    onBlur={() => setTyping(reply.trim() !== "")}
                    placeholder={t("Reply to {{name}}", { name: reel.creator.name })}
                    className="w-full rounded-full border border-white/60 bg-black/40 px-4 py-2 text-white placeholder:text-slate-300"
                  />
                </label>
                {reply.trim() ? (
                  <button
                    type="submit"
                    className="rounded-full bg-white px-3 py-2 text-sm font-semibold text-slate-900"
                  >
                    {t("Send")}
                  </button>
                ) : null}
              </form>
              <button
                type="button"
                className="rounded-full p-2 text-xl hover:bg-white/10"
                aria-pressed={story.liked}
                aria-label={t("Like")}
                onClick={() => void toggleLike(story)}
                data-story-like
              >
                <span aria-hidden="true">{story.liked ? "♥" : "♡"}</span>
              </button>
              <TipButton
                target={{ username: reel.creator.username }}
                creatorName={reel.creator.name}
                className="rounded-full px-3 py-2 text-sm font-semibold hover:bg-white/10"
              >
                {t("Tip")}
              </TipButton>
            </div>
          )}
        </div>
      </div>
    </main>
  );
}
