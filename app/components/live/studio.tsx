import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { LiveMediaView, LiveStreamView } from "@shared/contracts/live";
import { LIVE_AUDIENCES, MAX_LIVE_TITLE_LENGTH, type LiveAudience } from "@shared/contracts/live-limits";
import { formatCents } from "@shared/money";
import { parseDollars } from "@shared/typed-dollars";
import { Field, SelectField } from "~/components/forms";
import { Notice } from "~/components/notice";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { GoalBar, LiveChat, LiveMeta } from "~/components/live/live-chat";
import { liveMediaShape, liveStreamShape } from "~/components/live/live-shapes";
import { useCamera } from "~/components/live/use-camera";
import { useLiveRoom } from "~/components/live/use-live-room";
import { keepSession, P2PBroadcast, whipPublish } from "~/components/live/webrtc";

type FieldErrors = Record<string, string[]>;

/**
 * /live/start: the creator's studio. Before going live: the camera's preview with device choice, mute and
 * camera-off, and the stream's title, audience, optional entry price and tip goal. Live: the same video, the
 * viewer count, the chat (with Mute and Remove per viewer), the tips as they arrive, the goal bar and End stream.
 * Leaving the screen while live asks first; a closed tab ends the stream through the heartbeat (LiveRoom).
 */
export function Studio({
  current,
  media,
  selfId,
}: {
  current: LiveStreamView | null;
  media: LiveMediaView | null;
  selfId: number;
}) {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  const [stream, setStream] = useState<LiveStreamView | null>(current);
  const [plan, setPlan] = useState<LiveMediaView | null>(media);
  const [ended, setEnded] = useState<LiveStreamView | null>(null);
  const transport = useRef<{ replaceTrack(track: MediaStreamTrack): Promise<void> } | null>(null);
  const { camera, choose, toggle } = useCamera((track) => void transport.current?.replaceTrack(track));
  const preview = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    if (preview.current) preview.current.srcObject = camera.stream;
  }, [camera.stream]);

  return (
    <div className="space-y-4 p-4">
      <div className="relative overflow-hidden rounded-2xl bg-black">
        <video
          ref={preview}
          className="aspect-video w-full object-cover"
          playsInline
          autoPlay
          muted
          aria-label={t("Your camera")}
          data-studio-preview
        />
        {camera.failed ? (
          <p role="alert" className="absolute inset-0 flex items-center justify-center p-6 text-center text-white">
            {camera.failed === "denied"
              ? t("Allow the camera and microphone in your browser to go live.")
              : t("No camera or microphone was found.")}
          </p>
        ) : null}
        {stream && !ended ? (
          <span className="absolute start-3 top-3 rounded bg-red-600 px-1.5 py-0.5 text-xs font-bold uppercase text-white">
            {t("Live")}
          </span>
        ) : null}
      </div>
      <DeviceControls camera={camera} choose={choose} toggle={toggle} />
      {ended ? (
        <StreamSummary stream={ended} onAgain={() => setEnded(null)} />
      ) : stream && plan && camera.stream ? (
        <OnAir
          stream={stream}
          plan={plan}
          camera={camera.stream}
          selfId={selfId}
          transport={transport}
          onEnded={(final) => {
            setStream(null);
            setPlan(null);
            setEnded(final);
            // The page's "Past streams" now starts with this one.
            revalidator.revalidate();
          }}
        />
      ) : stream ? (
        <p role="status">{t("Waiting for your camera…")}</p>
      ) : (
        <GoLiveForm
          ready={camera.stream !== null}
          onLive={(started, startedPlan) => {
            setPlan(startedPlan);
            setStream(started);
          }}
        />
      )}
    </div>
  );
}

function DeviceControls({
  camera,
  choose,
  toggle,
}: Pick<ReturnType<typeof useCamera>, "camera" | "choose" | "toggle">) {
  const { t } = useTranslation();
  if (!camera.stream) return null;
  return (
    <div className="flex flex-wrap items-end gap-3">
      <button
        type="button"
        className="btn-secondary"
        aria-pressed={!camera.microphoneOn}
        onClick={() => toggle("audio")}
      >
        {camera.microphoneOn ? t("Mute microphone") : t("Unmute microphone")}
      </button>
      <button type="button" className="btn-secondary" aria-pressed={!camera.cameraOn} onClick={() => toggle("video")}>
        {camera.cameraOn ? t("Turn camera off") : t("Turn camera on")}
      </button>
      <DeviceSelect
        kind="video"
        label={t("Camera")}
        placeholder={t("Choose a camera")}
        devices={camera.cameras}
        value={camera.cameraId}
        choose={choose}
      />
      <DeviceSelect
        kind="audio"
        label={t("Microphone")}
        placeholder={t("Choose a microphone")}
        devices={camera.microphones}
        value={camera.microphoneId}
        choose={choose}
      />
    </div>
  );
}

/** Which camera or microphone: the browser's devices by name (numbered before permission gives names). */
function DeviceSelect({
  kind,
  label,
  placeholder,
  devices,
  value,
  choose,
}: {
  kind: "video" | "audio";
  label: string;
  placeholder: string;
  devices: MediaDeviceInfo[];
  value: string;
  choose: (kind: "video" | "audio", deviceId: string) => Promise<void>;
}) {
  if (devices.length === 0) return null;
  return (
    <div className="min-w-48 flex-1">
      <SelectField
        label={label}
        name={kind}
        placeholder={placeholder}
        value={value}
        options={devices.map((device, index) => ({
          value: device.deviceId,
          label: device.label || `${label} ${index + 1}`,
        }))}
        onChange={(event) => event.target.value && void choose(kind, event.target.value)}
      />
    </div>
  );
}

/** Dollars typed in a field: null when empty, NaN when not an amount. */
function optionalCents(typed: string): number | null {
  if (!typed.trim()) return null;
  return parseDollars(typed) ?? Number.NaN;
}

function GoLiveForm({
  ready,
  onLive,
}: {
  ready: boolean;
  onLive: (stream: LiveStreamView, plan: LiveMediaView) => void;
}) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const audienceLabels: Record<LiveAudience, string> = {
    everyone: t("Everyone"),
    followers: t("Followers"),
    subscribers: t("Subscribers"),
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "");
    const priceCents = optionalCents(text("price"));
    const goalCents = optionalCents(text("goal"));
    const typed: FieldErrors = {};
    if (Number.isNaN(priceCents)) typed.priceCents = [t("Enter an amount in dollars, like 12.50.")];
    if (Number.isNaN(goalCents)) typed.goalCents = [t("Enter an amount in dollars, like 12.50.")];
    setErrors(typed);
    setFailure(null);
    if (Object.keys(typed).length > 0) return;
    setSending(true);
    try {
      const started = await api.post(
        "/live",
        {
          title: text("title"),
          audience: text("audience"),
          priceCents: priceCents ?? 0,
          goalCents,
          goalTitle: text("goalTitle").trim() || null,
        },
        liveStreamShape,
      );
      const plan = await api.get(`/live/${started.id}/media`, liveMediaShape);
      onLive(started, plan);
    } catch (error) {
      if (error instanceof ApiError) {
        setErrors(error.body.errors ?? {});
        if (Object.keys(error.body.errors ?? {}).length === 0) setFailure(error.body.message);
      } else {
        setFailure(t("Live video is not available right now. Try again in a moment."));
      }
    } finally {
      setSending(false);
    }
  }

  return (
    <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
      <Field
        label={t("Title")}
        name="title"
        required
        maxLength={MAX_LIVE_TITLE_LENGTH}
        autoComplete="off"
        errors={errors.title}
      />
      <SelectField
        label={t("Who can watch")}
        name="audience"
        placeholder={t("Choose who can watch")}
        defaultValue="everyone"
        options={LIVE_AUDIENCES.map((audience) => ({ value: audience, label: audienceLabels[audience] }))}
        errors={errors.audience}
      />
      <Field
        label={t("Entry price in dollars (optional)")}
        name="price"
        inputMode="decimal"
        autoComplete="off"
        errors={errors.priceCents}
        hint={t("Fans pay it once from their wallet to watch.")}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t("Tip goal in dollars (optional)")}
          name="goal"
          inputMode="decimal"
          autoComplete="off"
          errors={errors.goalCents}
        />
        <Field
          label={t("What the goal is for (optional)")}
          name="goalTitle"
          maxLength={MAX_LIVE_TITLE_LENGTH}
          autoComplete="off"
          errors={errors.goalTitle}
        />
      </div>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <button type="submit" className="btn-primary" disabled={!ready || sending}>
        {sending ? t("Going live…") : t("Go live")}
      </button>
      <p className="text-sm text-slate-500 dark:text-slate-400">
        {t("Your followers are notified when you start, and they can chat and tip while you stream.")}
      </p>
    </form>
  );
}

/** While live: sends the camera to the viewers, runs the room (heartbeat, chat, tips), and ends the stream. */
function OnAir({
  stream,
  plan,
  camera,
  selfId,
  transport,
  onEnded,
}: {
  stream: LiveStreamView;
  plan: LiveMediaView;
  camera: MediaStream;
  selfId: number;
  transport: React.MutableRefObject<{ replaceTrack(track: MediaStreamTrack): Promise<void> } | null>;
  onEnded: (stream: LiveStreamView) => void;
}) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const revalidator = useRevalidator();
  const [broadcast] = useState(() =>
    plan.transport === "p2p"
      ? new P2PBroadcast(camera, plan, (to, signal) => room.current.send({ type: "signal", to, signal }))
      : null,
  );
  const [publishFailed, setPublishFailed] = useState(false);
  const [ending, setEnding] = useState(false);
  const { state, send } = useLiveRoom(stream.id, {
    creator: true,
    initialTipsCents: stream.tipsCents,
    initialViewers: stream.viewers,
    onMedia: (frame) => {
      if (!broadcast) return;
      if (frame.type === "peer-joined") broadcast.add(frame.peerId);
      else if (frame.type === "peer-left") broadcast.remove(frame.peerId);
      else if (frame.type === "signal") broadcast.signal(frame.from, frame.signal);
    },
  });
  const room = useRef({ send });
  room.current.send = send;

  useEffect(() => {
    if (broadcast) {
      transport.current = broadcast;
      return () => {
        broadcast.close();
        transport.current = null;
      };
    }
    const publishUrl = plan.transport === "whip" ? plan.publishUrl : null;
    if (!publishUrl) return;
    const stop = keepSession(() => whipPublish(publishUrl, camera, plan), {
      open: (session) => (transport.current = session),
      fail: (error) => {
        console.warn("WHIP publish failed", error);
        setPublishFailed(true);
      },
    });
    return () => {
      stop();
      transport.current = null;
    };
  }, [broadcast, camera, plan, transport]);

  const live = !state.ended && !ending;
  // Following a link away while live asks first, and ends the stream when the creator goes (a click caught
  // before the router's own: Remix's useBlocker would weigh on every page's first JavaScript). A reload or a
  // closed tab gets the browser's own question; the back button leaves, and the heartbeat ends the stream.
  const endRef = useRef(end);
  endRef.current = end;
  useEffect(() => {
    if (!live) return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    const leaving = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (
        !(link instanceof HTMLAnchorElement) ||
        link.origin !== window.location.origin ||
        link.pathname === window.location.pathname
      )
        return;
      if (window.confirm(t("End your stream and leave?"))) {
        void endRef.current();
      } else {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", ask);
    window.addEventListener("click", leaving, true);
    return () => {
      window.removeEventListener("beforeunload", ask);
      window.removeEventListener("click", leaving, true);
    };
  }, [live, t]);

  async function end() {
    setEnding(true);
    try {
      const final = await api.post(`/live/${stream.id}/end`, {}, liveStreamShape);
      onEnded(final);
    } catch {
      setEnding(false);
    }
  }

  // The room ended it (a moderator, or this tab was silent too long): the summary from the server.
  useEffect(() => {
    if (!state.ended || ending) return;
    api
      .get(`/live/${stream.id}`, liveStreamShape)
      .then(onEnded)
      .catch(() => revalidator.revalidate());
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.ended]);

  return (
    <section aria-labelledby="on-air" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h2 id="on-air" dir="auto" className="truncate-text text-lg font-semibold">
            {stream.title}
          </h2>
          <LiveMeta viewers={state.viewers} startedAt={stream.startedAt} ended={false} />
        </div>
        <button
          type="button"
          className="btn-primary w-auto bg-red-600 hover:bg-red-700"
          disabled={ending}
          onClick={() => {
            // One tap must not end a broadcast by mistake: ask first.
            if (window.confirm(t("End your stream now? Your viewers will be disconnected."))) void end();
          }}
        >
          {ending ? t("Ending…") : t("End stream")}
        </button>
      </div>
      {publishFailed ? (
        <Notice tone="error">{t("Live video is not available right now. Try again in a moment.")}</Notice>
      ) : null}
      {!state.connected ? <p className="text-sm text-slate-500">{t("Connecting…")}</p> : null}
      <p className="text-sm" data-tips-total>
        {t("Tips so far: {{amount}}", { amount: formatCents(state.tipsCents, i18n.language) })}
      </p>
      {stream.goal ? <GoalBar goal={stream.goal} tipsCents={state.tipsCents} /> : null}
      <LiveChat
        className="h-96 rounded-2xl border border-slate-200 dark:border-slate-800"
        feed={state.feed}
        send={send}
        selfId={selfId}
        creatorId={stream.creator.id}
        moderate
        muted={false}
        refused={state.refused}
        canWrite={live}
      />
    </section>
  );
}

function StreamSummary({ stream, onAgain }: { stream: LiveStreamView; onAgain: () => void }) {
  const { t, i18n } = useTranslation();
  return (
    <section
      aria-labelledby="stream-ended"
      className="space-y-3 rounded-2xl border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="stream-ended" className="text-lg font-semibold" role="status">
        {t("This stream has ended")}
      </h2>
      <p>
        {t("Peak viewers: {{count}} · Tips: {{amount}}", {
          count: stream.peakViewers,
          amount: formatCents(stream.tipsCents, i18n.language),
        })}
      </p>
      <button type="button" className="btn-primary w-auto" onClick={onAgain}>
        {t("Go live again")}
      </button>
    </section>
  );
}
