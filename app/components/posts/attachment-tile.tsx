import { useTranslation } from "react-i18next";
import { ConversionProgress, UploadProgress } from "~/components/media/upload-progress";
import { Icon } from "~/components/shell/icons";
import type { Attachment } from "~/components/posts/use-attachments";

/**
 * One chosen file: its thumbnail, an upload progress bar (a video's also its conversion's, or the note that it goes
 * as it is), or "From vault" for a file picked there, and a button to remove it.
 */
export function AttachmentTile({ attachment, onRemove }: { attachment: Attachment; onRemove: () => void }) {
  const { t } = useTranslation();
  return (
    <li
      className="relative overflow-hidden rounded-xl bg-slate-100 dark:bg-slate-800"
      data-upload-state={attachment.state}
    >
      {attachment.thumbnailUrl ? (
        <img src={attachment.thumbnailUrl} alt="" className="aspect-square w-full object-cover" />
      ) : (
        <div className="flex aspect-square w-full items-center justify-center p-2 text-center text-sm text-slate-600 dark:text-slate-300">
          <span className="break-all">{attachment.name}</span>
        </div>
      )}
      <button
        type="button"
        onClick={onRemove}
        className="absolute end-1 top-1 rounded-full bg-slate-900/70 p-1 text-white hover:bg-slate-900"
        aria-label={
          attachment.fromVault ? t("Remove this file from vault") : t("Remove {{name}}", { name: attachment.name })
        }
      >
        <Icon name="close" className="h-4 w-4" />
      </button>
      <div className="absolute inset-x-0 bottom-0 space-y-1 bg-white/85 px-2 py-1 text-xs dark:bg-slate-900/85">
        {attachment.fromVault ? (
          <span className="text-slate-700 dark:text-slate-200">{t("From vault")}</span>
        ) : attachment.state === "failed" ? (
          <span className="font-medium text-red-700 dark:text-red-300">{t("Upload failed")}</span>
        ) : (
          <>
            {attachment.conversion ? (
              <ConversionProgress
                state={attachment.conversion.state}
                value={attachment.conversion.progress}
                name={attachment.name}
              />
            ) : null}
            <UploadProgress value={attachment.progress} name={attachment.name} done={attachment.state === "ready"} />
          </>
        )}
      </div>
    </li>
  );
}
