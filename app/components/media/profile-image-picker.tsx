import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "~/lib/api";
import { useSession } from "~/lib/session";
import type { UploadedMedia } from "~/lib/uploads";
import { ImagePicker } from "./image-picker";

/**
 * The avatar or the cover, changed on the spot: the picked image uploads, then POST /api/me/{which} makes it
 * the profile's (the one it replaces is deleted by the server). For Settings and the become-a-creator steps.
 */
export function ProfileImagePicker({ which, currentUrl, onSaved }: { which: "avatar" | "cover"; currentUrl: string | null; onSaved?: (url: string) => void }) {
  const { t } = useTranslation();
  const { api, user, setUser } = useSession();
  const [status, setStatus] = useState<string | null>(null);

  async function save(media: UploadedMedia) {
    try {
      const { url } = await api.post<{ url: string }>(`/me/${which}`, { mediaId: media.id });
      if (which === "avatar") setUser({ ...user, avatarUrl: url });
      setStatus(which === "avatar" ? t("Profile photo saved.") : t("Cover image saved."));
      onSaved?.(url);
    } catch (error) {
      setStatus(error instanceof ApiError ? error.body.message : t("The upload failed. Please try again."));
    }
  }

  return (
    <div className="space-y-1">
      <ImagePicker
        purpose={which}
        label={which === "avatar" ? t("Profile photo") : t("Cover image")}
        shape={which === "avatar" ? "round" : "wide"}
        currentUrl={currentUrl}
        onUploaded={save}
      />
      <p role="status" className="text-sm text-slate-600 dark:text-slate-300">
        {status}
      </p>
    </div>
  );
}
