import { useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import {
  MAX_STORY_TEXT_LENGTH,
  MAX_STORY_VIDEO_MS,
  STORY_AUDIENCES,
  type StoryAudience,
} from "@shared/contracts/story-limits";
import { ConversionProgress, UploadProgress } from "~/components/media/upload-progress";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import { deleteUpload, uploadFile, type ConversionState } from "~/lib/uploads";
import { storyShape } from "~/components/stories/story-shapes";
import { useRootData } from "~/root";
import { failureText } from "~/lib/failure-text";
import { FromVaultButton } from "~/components/vault/from-vault-button";
import type { VaultItem } from "@shared/contracts/vault";

const ACCEPTED = "image/jpeg,image/png,image/webp,image/gif,video/mp4,video/quicktime,video/webm";

interface Picked {
  /** The file chosen on the device; null for a file picked from the vault (stored already, nothing to upload). */
  file: File | null;
  name: string;
  url: string;
  kind: "image" | "video";
  durationMs: number | null;
}

/**
 * A video's length as the browser reads it. A recording without a stated length (a MediaRecorder WebM) reports
 * Infinity until it is sought to its end, which makes the browser find the real length.
 */
function measureVideo(url: string): Promise<number | null> {
  return new Promise((resolve) => {
    const video = document.createElement("video");
    video.preload = "metadata";
    video.muted = true;
    const done = (value: number | null) => {
      video.removeAttribute("src");
      resolve(value);
    };
    video.onloadedmetadata = () => {
      if (Number.isFinite(video.duration)) return done(Math.round(video.duration * 1000));
      video.ondurationchange = () => {
        if (Number.isFinite(video.duration)) done(Math.round(video.duration * 1000));
      };
      video.currentTime = 1e7;
    };
    video.onerror = () => done(null);
    video.src = url;
  });
}

/**
 * /stories/create: pick a photo or a video (up to 60 s), see it full screen as fans will, add text, choose who
 * sees it, publish. The file uploads as soon as it is picked (resumable, with progress; a video with its renditions,
 * made meanwhile with their own progress); Publish waits for it.
 */
export function StoryComposer() {
  const { t } = useTranslation();
  const { api } = useSession();
  const csrfToken = useRootData()?.csrfToken ?? null;
  const navigate = useNavigate();
  const input = useRef<HTMLInputElement>(null);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [progress, setProgress] = useState(0);
  /** A video's renditions being made (app/lib/uploads.ts); null for a photo. */
  const [conversion, setConversion] = useState<ConversionState | null>(null);
  const [convertProgress, setConvertProgress] = useState(0);
  const [mediaId, setMediaId] = useState<number | null>(null);
  const [uploaded, setUploaded] = useState(false);
  const [text, setText] = useState("");
  const [audience, setAudience] = useState<StoryAudience>("everyone");
  const [error, setError] = useState<string | null>(null);
  /** Why the last file picked cannot be a story (refused by the server, a video too long), and its name. */
  const [refused, setRefused] = useState<{ name: string; reason: string } | null>(null);
  const [publishing, setPublishing] = useState(false);
  const upload = useRef<AbortController | null>(null);
  const refusal = useRef<HTMLDivElement>(null);

  useEffect(() => () => upload.current?.abort(), []);
  // On a phone the upload area ends near the bottom bar: the refusal is brought into view, clear of it.
  useEffect(() => {
    if (refused) refusal.current?.scrollIntoView({ block: "nearest" });
  }, [refused]);

  /** Forgets the file picked before: an upload of this composer is stopped and deleted, a vault file stays. */
  function forgetPicked() {
    upload.current?.abort();
    if (mediaId !== null && picked?.file) void deleteUpload(mediaId, csrfToken).catch(() => undefined);
    if (picked?.file) URL.revokeObjectURL(picked.url);
  }

  function chooseFromVault(item: VaultItem) {
    forgetPicked();
    setError(null);
    setConversion(null);
    if (item.durationMs !== null && item.durationMs > MAX_STORY_VIDEO_MS) {
      setPicked(null);
      setMediaId(null);
      setUploaded(false);
      setRefused({ name: t("From vault"), reason: t("A story video can be at most 60 seconds.") });
      return;
    }
    setRefused(null);
    setPicked({ file: null, name: t("From vault"), url: item.url, kind: item.kind, durationMs: item.durationMs });
    setMediaId(item.id);
    setProgress(1);
    setUploaded(true);
  }

  async function choose(file: File) {
    forgetPicked();
    setError(null);
    setRefused(null);
    setMediaId(null);
    setUploaded(false);
    setProgress(0);
    setConversion(null);
    setConvertProgress(0);
    const url = URL.createObjectURL(file);
    const kind = file.type.startsWith("video/") ? "video" : "image";
    const durationMs = kind === "video" ? await measureVideo(url) : null;
    if (durationMs !== null && durationMs > MAX_STORY_VIDEO_MS) {
      URL.revokeObjectURL(url);
      setPicked(null);
      setRefused({ name: file.name, reason: t("A story video can be at most 60 seconds.") });
      return;
    }
    setPicked({ file, name: file.name, url, kind, durationMs });
    const controller = new AbortController();
    upload.current = controller;
    try {
      const media = await uploadFile(file, {
        purpose: "story",
        csrfToken,
        signal: controller.signal,
        onProgress: setProgress,
        onStarted: setMediaId,
        // A file picked instead of this one has its own bars.
        onConversion: (state) => {
          if (!controller.signal.aborted) setConversion(state);
        },
        onConvertProgress: (fraction) => {
          if (!controller.signal.aborted) setConvertProgress(fraction);
        },
      });
      if (controller.signal.aborted) return;
      setMediaId(media.id);
      setUploaded(true);
    } catch (failure) {
      if (controller.signal.aborted) return;
      // The file cannot be this story: its preview goes (a file that is not really a picture shows broken), the
      // upload area says why, and the button offers to choose another.
      URL.revokeObjectURL(url);
      setPicked(null);
      setProgress(0);
      setRefused({
        name: file.name,
        reason: failure instanceof ApiError ? failure.body.message : t("The upload failed. Try again."),
      });
    }
  }

  async function publish(event: FormEvent) {
    event.preventDefault();
    if (!picked || mediaId === null || !uploaded) return;
    setPublishing(true);
    setError(null);
    try {
      await api.post("/stories", { mediaId, text, audience, durationMs: picked.durationMs }, storyShape);
      navigate("/home");
    } catch (failure) {
      setError(failureText(t, failure));
      setPublishing(false);
    }
  }

  return (
    <form onSubmit={(event) => void publish(event)} className="space-y-4 p-4">
      <input
        ref={input}
        type="file"
        accept={ACCEPTED}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="story-file"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void choose(file);
        }}
      />
      {/* The story as fans will see it: full height, the text over the picture. */}
      <div
        className="relative mx-auto flex aspect-[9/16] max-h-[70vh] w-full max-w-xs items-center justify-center overflow-hidden rounded-2xl bg-slate-900 text-white"
        data-story-preview
      >
        {picked ? (
          picked.kind === "image" ? (
            <img src={picked.url} alt={t("Your story")} className="h-full w-full object-contain" />
          ) : (
            <video
              src={picked.url}
              muted
              autoPlay
              loop
              playsInline
              className="h-full w-full object-contain"
              aria-label={t("Your story")}
            />
          )
        ) : (
          <p className="p-6 text-center text-slate-300">
            {t(
              "Stories are photos or short videos that disappear after 24 hours. Your followers see them at the top of their feed.",
            )}
          </p>
        )}
        {picked && text.trim() ? (
          <p
            dir="auto"
            className="absolute inset-x-3 bottom-16 whitespace-pre-line break-words rounded-lg bg-black/60 p-2 text-center font-semibold"
          >
            {text}
          </p>
        ) : null}
      </div>
      <div className="flex gap-2">
        <button type="button" className="btn-secondary flex-1" onClick={() => input.current?.click()}>
          {picked ? t("Choose another photo or video") : t("Choose a photo or video")}
        </button>
        <FromVaultButton
          className="btn-secondary w-auto"
          max={1}
          single
          onPick={(items) => {
            if (items[0]) chooseFromVault(items[0]);
          }}
        />
      </div>
      {refused ? (
        <div
          ref={refusal}
          role="alert"
          className="scroll-mb-24 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          <p className="truncate-text font-medium" dir="auto">
            {refused.name}
          </p>
          <p>{refused.reason}</p>
        </div>
      ) : picked ? (
        <div className="space-y-2">
          {conversion ? <ConversionProgress state={conversion} value={convertProgress} name={picked.name} /> : null}
          <UploadProgress value={progress} name={picked.name} done={uploaded} />
        </div>
      ) : null}
      <label className="block">
        <span className="mb-1 block text-sm font-medium">{t("Text on your story")}</span>
        <textarea
          className="input"
          rows={2}
          maxLength={MAX_STORY_TEXT_LENGTH}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      <label className="block">
        <span className="mb-1 block text-sm font-medium">{t("Who can see it")}</span>
        <select
          className="input"
          value={audience}
          onChange={(event) => setAudience(event.target.value as StoryAudience)}
        >
          {STORY_AUDIENCES.map((value) => (
            <option key={value} value={value}>
              {value === "everyone" ? t("Everyone") : value === "followers" ? t("Followers") : t("Subscribers")}
            </option>
          ))}
        </select>
      </label>
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn-primary" disabled={!uploaded || publishing}>
        {publishing ? t("Publishing…") : t("Publish story")}
      </button>
    </form>
  );
}
