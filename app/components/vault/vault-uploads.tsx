import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { UploadProgress } from "~/components/media/upload-progress";
import { ACCEPTED_MEDIA } from "~/components/posts/use-attachments";
import { failureText } from "~/lib/failure-text";
import { uploadFile } from "~/lib/uploads";
import { useRootData } from "~/root";

interface VaultUpload {
  key: string;
  name: string;
  progress: number;
  state: "uploading" | "ready" | "failed";
  error: string | null;
}

/**
 * Straight into the vault: many files at once, each uploading on its own (the composers' resumable upload, content
 * files) with its progress bar. `onUploaded` runs as each one is done, for the library to show it.
 */
export function VaultUploads({ onUploaded }: { onUploaded: () => void }) {
  const { t } = useTranslation();
  const csrfToken = useRootData()?.csrfToken ?? null;
  const input = useRef<HTMLInputElement>(null);
  const [uploads, setUploads] = useState<VaultUpload[]>([]);

  const update = (key: string, change: Partial<VaultUpload>) =>
    setUploads((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));

  function add(files: File[]) {
    const added = files.map((file) => ({
      file,
      upload: {
        key: crypto.randomUUID(),
        name: file.name,
        progress: 0,
        state: "uploading",
        error: null,
      } as VaultUpload,
    }));
    setUploads((list) => [...list.filter((item) => item.state !== "ready"), ...added.map(({ upload }) => upload)]);
    for (const { file, upload } of added)
      uploadFile(file, { purpose: "post", csrfToken, onProgress: (progress) => update(upload.key, { progress }) }).then(
        () => {
          update(upload.key, { state: "ready", progress: 1 });
          onUploaded();
        },
        (error: unknown) => update(upload.key, { state: "failed", error: failureText(t, error) }),
      );
  }

  return (
    <section aria-label={t("Upload to your vault")} className="space-y-3">
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPTED_MEDIA}
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="vault-files"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = "";
          if (files.length > 0) add(files);
        }}
      />
      <button type="button" className="btn-primary w-auto" data-needs-js onClick={() => input.current?.click()}>
        {t("Upload photos and videos")}
      </button>
      {uploads.length > 0 ? (
        <ul className="space-y-2" aria-label={t("Uploads")}>
          {uploads.map((upload) => (
            <li key={upload.key} data-vault-upload={upload.state}>
              {upload.state === "failed" ? (
                <p role="alert" className="text-sm text-red-700 dark:text-red-400">
                  <span dir="auto" className="font-medium">
                    {upload.name}
                  </span>
                  {": "}
                  {upload.error}
                </p>
              ) : (
                <UploadProgress value={upload.progress} name={upload.name} done={upload.state === "ready"} />
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
