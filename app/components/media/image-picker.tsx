import { useEffect, useId, useRef, useState, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "~/lib/api";
import { uploadFile, type UploadedMedia, type UploadPurpose } from "~/lib/uploads";
import { useRootData } from "~/root";
import { UploadProgress } from "~/components/media/upload-progress";

interface ImagePickerProps {
  purpose: Exclude<UploadPurpose, "post">;
  label: string;
  /** The image shown before anything is picked (the current avatar or cover). */
  currentUrl?: string | null;
  /** "round" for avatars, "wide" for covers, "document" for ID photos. */
  shape?: "round" | "wide" | "document";
  onUploaded: (media: UploadedMedia) => void;
}

const FRAME: Record<NonNullable<ImagePickerProps["shape"]>, string> = {
  round: "h-24 w-24 rounded-full",
  wide: "h-32 w-full rounded-lg",
  document: "h-40 w-64 rounded-lg",
};

/** Choose an image, see it at once, watch it upload; the parent gets the stored media to save with its form. */
export function ImagePicker({ purpose, label, currentUrl, shape = "round", onUploaded }: ImagePickerProps) {
  const { t } = useTranslation();
  const csrfToken = useRootData()?.csrfToken ?? null;
  const inputId = useId();
  const errorId = `${inputId}-error`;
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pending = useRef<AbortController | null>(null);

  // The local preview is a blob: URL; free it when replaced, and stop an upload when the picker goes away.
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  useEffect(() => () => pending.current?.abort(), []);

  async function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    setPreview(URL.createObjectURL(file));
    setError(null);
    setProgress(0);
    try {
      const media = await uploadFile(file, { purpose, csrfToken, onProgress: setProgress, signal: controller.signal });
      onUploaded(media);
    } catch (failure) {
      if (controller.signal.aborted) return;
      setPreview(null);
      setError(failure instanceof ApiError ? failure.body.message : t("The upload failed. Please try again."));
    } finally {
      if (pending.current === controller) setProgress(null);
    }
  }

  const shown = preview ?? currentUrl ?? null;
  return (
    <div className="space-y-2">
      <span className="block text-sm font-medium">{label}</span>
      <div className={`${FRAME[shape]} overflow-hidden bg-slate-200 dark:bg-slate-700`}>
        {shown ? <img src={shown} alt="" className="h-full w-full object-cover" /> : null}
      </div>
      <label
        htmlFor={inputId}
        className="btn-secondary inline-block cursor-pointer focus-within:ring-2 focus-within:ring-sky-500"
      >
        {shown ? t("Change image") : t("Choose image")}
        <input
          id={inputId}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif"
          className="sr-only"
          aria-label={label}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          disabled={progress !== null}
          onChange={(event) => void choose(event)}
        />
      </label>
      {progress !== null ? <UploadProgress value={progress} /> : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
