import { useEffect, useMemo, useRef, useState, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import type { PlayableVideo } from "~/components/media/video-player";
import {
  chooseSource,
  nextLower,
  sourcesOf,
  type NetworkHint,
  type Quality,
  type Source,
} from "~/lib/rendition-choice";
import { KEEP_VIDEO } from "~/sw/policy";

export interface PlaybackProps {
  element: RefObject<HTMLVideoElement>;
  video: PlayableVideo;
  /** The video of an opened post: its chosen source starts loading before play (a list's wait for play). */
  eager?: boolean;
}

/** The <video>'s source: a rendition's name, "Original" or "HLS"; no url while hls.js feeds it. */
interface Playing {
  name: string;
  url?: string;
}

/** What this page measured the network to carry, bits per second: every later choice starts from it. */
let throughput: number | null = null;
/** Less than this many seconds buffered ahead when playback stalls: the rendition is too much for the network. */
const LOW_BUFFER_SECONDS = 2;
/** Growth of the buffer over less than this tells little of the network. */
const MIN_SAMPLE_MS = 1000;
const HLS_TYPE = "application/vnd.apple.mpegurl";

function networkHint(): NetworkHint {
  const connection = (navigator as Navigator & { connection?: NetworkHint }).connection;
  return {
    effectiveType: connection?.effectiveType,
    downlink: connection?.downlink,
    saveData: connection?.saveData,
    offline: !navigator.onLine,
  };
}

/** The device pixels the element shows, or null before it has a size. */
function displayOf(media: HTMLVideoElement) {
  const { width, height } = media.getBoundingClientRect();
  return width > 0 && height > 0 ? { width: width * devicePixelRatio, height: height * devicePixelRatio } : null;
}

const bufferedSeconds = (ranges: TimeRanges) => {
  let total = 0;
  for (let index = 0; index < ranges.length; index++) total += ranges.end(index) - ranges.start(index);
  return total;
};

function bufferedAhead(media: HTMLVideoElement) {
  const { buffered, currentTime } = media;
  for (let index = 0; index < buffered.length; index++)
    if (buffered.start(index) <= currentTime && currentTime <= buffered.end(index))
      return buffered.end(index) - currentTime;
  return 0;
}

/**
 * The working half of VideoPlayer (./video-player.tsx), loaded lazily: it sets the <video>'s source (the server's
 * render, the lowest rendition, stays unless this changes it), picking it by network and screen
 * before the video starts, measures the throughput while it buffers (media seconds buffered × the rendition's
 * bitrate over the time it took), steps down a rendition when playback stalls with little buffered, and renders
 * the quality menu. A Cloudflare Stream video (`hlsUrl`) plays its HLS natively where the browser can, else through
 * hls.js, fetched once the video is on screen. Each 360p source is offered to the service worker to keep for
 * watching offline (app/sw/media-cache.ts).
 */
export function Playback({ element, video, eager = false }: PlaybackProps) {
  const { t } = useTranslation();
  const { url, renditions, hlsUrl } = video;
  const sources = useMemo(() => sourcesOf(renditions, url), [renditions, url]);
  const [manual, setManual] = useState<Quality | null>(null);
  const [playing, play] = useState<Playing>(() => ({
    name: element.current?.dataset.rendition ?? "",
    url: element.current?.getAttribute("src") ?? undefined,
  }));
  const [controls] = useState(() => element.current?.controls === true);
  /** Where and how the video was when its source changed: the new source goes on from there. */
  const resume = useRef<{ time: number; play: boolean } | null>(null);

  function switchTo(source: Source) {
    const media = element.current;
    if (!media || source.url === playing.url) return;
    resume.current = { time: media.currentTime, play: !media.paused };
    play({ name: source.name, url: source.url });
  }
  const choose = (choice: Quality | null) =>
    chooseSource({
      sources,
      network: networkHint(),
      throughput,
      display: element.current && displayOf(element.current),
      manual: choice,
    });

  // The first choice, unless the video started before this module arrived (it then goes on where it is).
  useEffect(() => {
    const media = element.current;
    if (!media) return;
    if (hlsUrl) {
      if (media.canPlayType(HLS_TYPE)) return play({ name: "HLS", url: hlsUrl });
      const observer = new IntersectionObserver((entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        play({ name: "HLS" });
      });
      observer.observe(media);
      return () => observer.disconnect();
    }
    if (media.paused && media.currentTime === 0) switchTo(choose(null));
    // Once, when the player arrives: later changes come from the menu and the stalls.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Until the video starts, a change of network (a phone leaving Wi-Fi, the page going offline) chooses again: the
  // page may have been open a while before play is pressed.
  useEffect(() => {
    const media = element.current;
    if (!media || hlsUrl || manual) return;
    const connection = (navigator as Navigator & { connection?: EventTarget }).connection;
    const chooseAgain = () => {
      if (media.paused && media.currentTime === 0) switchTo(choose(null));
    };
    connection?.addEventListener("change", chooseAgain);
    window.addEventListener("online", chooseAgain);
    window.addEventListener("offline", chooseAgain);
    return () => {
      connection?.removeEventListener("change", chooseAgain);
      window.removeEventListener("online", chooseAgain);
      window.removeEventListener("offline", chooseAgain);
    };
    // switchTo reads this render's `playing`, which is among the dependencies.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [element, hlsUrl, sources, playing, manual]);

  // hls.js, for browsers without native HLS: attached once the source has no url (above).
  useEffect(() => {
    const media = element.current;
    if (!media || !hlsUrl || playing.name !== "HLS" || playing.url) return;
    let stopped = false;
    let detach = () => {};
    void import("hls.js").then(({ default: Hls }) => {
      if (stopped || !Hls.isSupported()) return;
      const hls = new Hls();
      hls.loadSource(hlsUrl);
      hls.attachMedia(media);
      detach = () => hls.destroy();
    });
    return () => {
      stopped = true;
      detach();
    };
  }, [element, hlsUrl, playing]);

  // A new source: on the <video>, back to where the last one was, playing if it was.
  useEffect(() => {
    const media = element.current;
    if (!media) return;
    media.dataset.rendition = playing.name;
    // An opened post's video loads its first second before play: on Slow 3G that is most of the wait.
    const preload = eager && playing.url && media.paused && media.currentTime === 0 && media.preload === "none";
    if (preload) media.preload = "metadata";
    if (playing.url && media.getAttribute("src") !== playing.url) media.src = playing.url;
    else if (preload) media.load();
    if (resume.current) {
      // Before the new source's metadata, this is where it will start (the "default playback start position").
      media.currentTime = resume.current.time;
      if (resume.current.play) void media.play().catch(() => undefined);
      resume.current = null;
    }
  }, [element, playing, eager]);

  // A 360p source is offered to the service worker to keep, and again when a worker takes the page over: on a
  // first visit there is none yet when the player arrives.
  useEffect(() => {
    const url = playing.url;
    const workers = navigator.serviceWorker;
    if (playing.name !== "360p" || !url || !workers) return;
    const keep = () => workers.controller?.postMessage({ type: KEEP_VIDEO, url });
    keep();
    workers.addEventListener("controllerchange", keep);
    return () => workers.removeEventListener("controllerchange", keep);
  }, [playing]);

  // Measures the throughput while the source buffers, and steps down when playback stalls on an empty buffer.
  useEffect(() => {
    const media = element.current;
    const source = sources.find((item) => item.url === playing.url);
    if (!media || !source) return;
    const bitrate = source.bitrate;
    let first: { at: number; seconds: number } | null = null;
    let last = 0;
    let started = false;
    const onProgress = () => {
      if (!bitrate) return;
      const seconds = bufferedSeconds(media.buffered);
      const at = performance.now();
      if (!first) first = { at, seconds };
      else if (seconds > last && at - first.at >= MIN_SAMPLE_MS)
        throughput = ((seconds - first.seconds) * bitrate * 1000) / (at - first.at);
      last = seconds;
    };
    const onPlaying = () => (started = true);
    const onWaiting = () => {
      if (!started || manual || media.seeking || bufferedAhead(media) >= LOW_BUFFER_SECONDS) return;
      const lower = nextLower(sources, source.name);
      if (!lower) return;
      // What this rendition needs is more than the network gives: later choices start lower too.
      if (bitrate) throughput = Math.min(throughput ?? Infinity, bitrate);
      switchTo(lower);
    };
    media.addEventListener("progress", onProgress);
    media.addEventListener("playing", onPlaying);
    media.addEventListener("waiting", onWaiting);
    return () => {
      media.removeEventListener("progress", onProgress);
      media.removeEventListener("playing", onPlaying);
      media.removeEventListener("waiting", onWaiting);
    };
    // switchTo reads this render's `playing`, which is among the dependencies.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [element, sources, playing, manual]);

  if (!controls || renditions.length === 0 || hlsUrl) return null;
  return (
    <select
      aria-label={t("Video quality")}
      value={manual ?? "auto"}
      onChange={(event) => {
        const choice = event.target.value === "auto" ? null : (event.target.value as Quality);
        setManual(choice);
        switchTo(choose(choice));
      }}
      className="absolute end-2 top-2 rounded bg-black/70 px-1 py-0.5 text-xs text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
    >
      <option value="auto">{t("Auto")}</option>
      {sources.map((source) => (
        <option key={source.name} value={source.name}>
          {source.name === "Original" ? t("Original") : source.name}
        </option>
      ))}
    </select>
  );
}
