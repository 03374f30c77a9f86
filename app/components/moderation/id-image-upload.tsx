import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/root";
import { uploadFile, type UploadedMedia } from "~/lib/uploads";

/**
 * One private ID image of a creator application (document, or selfie holding it): picks an image, uploads it
 * with its purpose, shows progress and then the picture (only the uploader and admins can fetch it).
 */
export function IdImageUpload({ label, hint, purpose, onUploaded }: { label: string; hint: string; purpose: "id_document" | "id_selfie"; onUploaded: (media: UploadedMedia | null) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const csrfToken = useRootData()?.csrfToken ?? null;
  const [progress, setProgress] = useState<number | null>(null);
  const [uploaded, setUploaded] = useState<UploadedMedia | null>(null);
  const [error, setError] = useState("");

  async function upload(file: File | undefined) {
    if (!file) return;
    setError("");
    setUploaded(null);
    onUploaded(null);
    setProgress(0);
    try {
      const media = await uploadFile(file, { purpose, csrfToken, onProgress: setProgress });
      setUploaded(media);
      onUploaded(media);
    } catch (failure) {
      console.error("ID image upload failed", failure);
      setError(t("The upload failed. Please try again."));
    } finally {
      setProgress(null);
    }
  }

  return (
    <div className="space-y-2 rounded-xl border border-slate-200 p-3 dark:border-slate-800">
      <label htmlFor={id} className="block font-medium">
        {label}
      </label>
      <p id={`${id}-hint`} className="text-sm text-slate-600 dark:text-slate-400">
        {hint}
      </p>
      <input id={id} type="file" accept="image/jpeg,image/png,image/webp" aria-describedby={`${id}-hint`} onChange={(event) => void upload(event.target.files?.[0])} className="block w-full text-sm" />
      {progress !== null ? <progress className="w-full" max={1} value={progress} aria-label={t("Upload progress")} /> : null}
      {uploaded ? <img src={uploaded.url} alt={label} className="max-h-48 rounded-lg object-contain" /> : null}
      {error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}
