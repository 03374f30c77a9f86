import { Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { LiveMediaView, LiveStreamView } from "@shared/contracts/live";
import { formatCents } from "@shared/money";
import { TipButton } from "~/components/money/tip-button";
import { Avatar } from "~/components/shell/avatar";
import { GoalBar, LiveChat, LiveMeta } from "~/components/live/live-chat";
import { useLiveRoom } from "~/components/live/use-live-room";
import { keepSession, P2PWatch, whepPlay, type MediaPlan } from "~/components/live/webrtc";

/** How long a tip stays over the video. */
const TIP_SHOWN_MS = 6_000;

/**
 * /live/{id} for a viewer, full screen: the video (muted until the person taps, as browsers require for autoplay
 * with sound), the creator and title, the viewer count and time on air, the goal bar, the chat, Tip; "This
 * stream has ended" when it ends, and the room's reason when it turned the viewer away (full, removed).
 */
export function WatchScreen({
  stream,
  media,
  selfId,
}: {
  stream: LiveStreamView;
  media: LiveMediaView | null;
  selfId: number;
}) {
  const { t, i18n } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [incoming, setIncoming] = useState<MediaStream | null>(null);
  const [soundOn, setSoundOn] = useState(false);
  const [mediaFailed, setMediaFailed] = useState(false);
  const watch = useRef<P2PWatch | null>(null);
  const live = stream.status === "live" && media !== null;
  const plan: MediaPlan | null = media ? { iceServers: media.iceServers, loopbackOnly: media.loopbackOnly } : null;

  const { state, send, dismiss } = useLiveRoom(stream.id, {
    creator: false,
    initialTipsCents: stream.tipsCents,
    initialViewers: stream.viewers,
    initialPeakViewers: stream.peakViewers,
    enabled: live,
    onMedia: (frame) => {
      if (frame.type === "signal") watch.current?.signal(frame.from, frame.signal);
    },
  });
  const ended = stream.status === "ended" || state.ended !== null;
  const turnedAway = state.closedWith;

  // p2p: ready to answer the creator's offer before the socket opens (the offer follows the socket's arrival).
  // whip: play from the WHEP endpoint.
  useEffect(() => {
    if (!live || !media || !plan) return;
    if (media.transport === "p2p") {
      const session = new P2PWatch(plan, (to, signal) => send({ type: "signal", to, signal }), setIncoming);
      watch.current = session;
      return () => {
        session.close();
        watch.current = null;
      };
    }
    const playUrl = media.playUrl;
    if (!playUrl) return;
    return keepSession(() => whepPlay(playUrl, plan, setIncoming), {
      fail: (error) => {
        console.warn("WHEP playback failed", error);
        setMediaFailed(true);
      },
    });
    // The plan is fixed for the page's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [live, stream.id]);

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    element.srcObject = ended ? null : incoming;
    if (incoming && !ended) void element.play().catch(() => undefined);
  }, [incoming, ended]);

  useEffect(() => {
    if (ended || turnedAway) watch.current?.close();
  }, [ended, turnedAway]);

  const [shownTip, setShownTip] = useState<typeof state.latestTip>(null);
  useEffect(() => {
    if (!state.latestTip) return;
    setShownTip(state.latestTip);
    const timer = setTimeout(() => setShownTip(null), TIP_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [state.latestTip]);

  useEffect(() => {
    if (!state.refused) return;
    const timer = setTimeout(dismiss, TIP_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [state.refused, dismiss]);

  function turnSoundOn() {
    const element = video.current;
    if (!element) return;
    element.muted = false;
    setSoundOn(true);
    void element.play().catch(() => undefined);
  }

  const money = (cents: number) => formatCents(cents, i18n.language);
  return (
    <main className="flex h-dvh flex-col bg-slate-950 text-white lg:flex-row">
      <div className="relative flex min-h-0 flex-1 items-center justify-center bg-black">
        <video
          ref={video}
          className="h-full w-full object-contain"
          playsInline
          autoPlay
          muted={!soundOn}
          aria-label={t("Live stream by {{username}}", { username: stream.creator.name })}
          data-live-video
        />
        <header className="absolute inset-x-0 top-0 z-10 flex items-start gap-3 bg-gradient-to-b from-black/80 to-transparent p-3">
          <Link
            to="/live"
            className="rounded-full bg-black/50 px-3 py-1 text-sm"
            aria-label={t("Back to live streams")}
          >
            {/* Back points the way one reads from: right in Arabic. */}
            <span aria-hidden="true" className="rtl:hidden">
              ←
            </span>
            <span aria-hidden="true" className="hidden rtl:inline">
              →
            </span>
          </Link>
          <Link to={`/${stream.creator.username}`} className="shrink-0" aria-label={stream.creator.name}>
            <Avatar url={stream.creator.avatarUrl} name={stream.creator.name} />
          </Link>
          <div className="min-w-0 flex-1">
            <h1 dir="auto" className="truncate-text font-semibold">
              {stream.title}
            </h1>
            <p dir="auto" className="truncate-text text-sm text-slate-300">
              {stream.creator.name}
            </p>
            <LiveMeta viewers={state.viewers} startedAt={stream.startedAt} ended={ended} />
          </div>
        </header>
        {live && !ended && !turnedAway && !soundOn && incoming ? (
          <button
            type="button"
            className="btn-primary absolute bottom-4 left-1/2 w-auto -translate-x-1/2"
            onClick={turnSoundOn}
          >
            {t("Tap for sound")}
          </button>
        ) : null}
        {live && !ended && !turnedAway && !incoming ? (
          <p role="status" className="absolute text-slate-300">
            {mediaFailed
              ? t("Live video is not available right now. Try again in a moment.")
              : t("Connecting to the stream…")}
          </p>
        ) : null}
        {shownTip ? (
          <p
            role="status"
            className="absolute bottom-16 left-1/2 max-w-sm -translate-x-1/2 rounded-2xl bg-amber-400 px-4 py-2 text-center text-slate-950 shadow-lg"
            data-tip-banner
          >
            <strong>
              {t("{{name}} tipped {{amount}}", { name: shownTip.user.name, amount: money(shownTip.amountCents) })}
            </strong>
            {shownTip.note ? (
              <span dir="auto" className="block break-words">
                {shownTip.note}
              </span>
            ) : null}
          </p>
        ) : null}
        {ended || turnedAway ? (
          <div
            role="alert"
            className="absolute inset-0 flex flex-col items-center justify-center gap-4 bg-black/80 p-6 text-center"
          >
            <h2 className="text-2xl font-bold">{turnedAway ?? t("This stream has ended")}</h2>
            {ended ? (
              <p className="text-slate-300">
                {t("Peak viewers: {{count}} · Tips: {{amount}}", {
                  count: state.peakViewers,
                  amount: money(state.tipsCents),
                })}
              </p>
            ) : null}
            <Link to="/live" className="btn-primary w-auto">
              {t("Live Streams")}
            </Link>
          </div>
        ) : null}
      </div>
      <aside className="flex h-[45dvh] min-h-0 flex-col border-slate-800 bg-slate-900 lg:h-auto lg:w-96 lg:border-s">
        {stream.goal ? (
          <div className="border-b border-slate-800 p-3">
            <GoalBar goal={stream.goal} tipsCents={state.tipsCents} />
          </div>
        ) : null}
        <LiveChat
          className="flex-1 text-slate-100"
          feed={state.feed}
          send={send}
          selfId={selfId}
          creatorId={stream.creator.id}
          moderate={false}
          muted={state.muted}
          refused={state.refused}
          canWrite={live && !ended && !turnedAway}
          onDark
        />
        {live && !ended && !turnedAway ? (
          <div className="border-t border-slate-800 p-2">
            <TipButton
              target={{ liveStreamId: stream.id }}
              creatorName={stream.creator.name}
              className="btn-secondary w-full border-amber-400 text-amber-200 hover:bg-amber-400/10"
            >
              {t("Send a tip")}
            </TipButton>
          </div>
        ) : null}
      </aside>
    </main>
  );
}
