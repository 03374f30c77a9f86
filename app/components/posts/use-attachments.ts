import { useCallback, useEffect, useRef, useState } from "react";
import type { VaultItem } from "@shared/contracts/vault";
import { deleteUpload, uploadFile, type ConversionState, type UploadPurpose } from "~/lib/uploads";

export const MAX_ATTACHMENTS = 20;
export const ACCEPTED_MEDIA = "image/jpeg,image/png,image/webp,image/gif,video/mp4,video/quicktime,video/webm";

/** A file in the composer, as the screen shows it. */
export interface Attachment {
  key: string;
  name: string;
  kind: "image" | "video";
  /** A local object URL of an image (a vault file's small copy), for the thumbnail; null for videos. */
  thumbnailUrl: string | null;
  /** Picked from the vault: already stored, so removing it from the composer leaves the file where it is. */
  fromVault?: true;
  /** 0..1 */
  progress: number;
  state: "uploading" | "ready" | "failed";
  /** A video's renditions being made (progress 0..1), made, or not possible here; null until it starts, and for photos. */
  conversion: { state: ConversionState; progress: number } | null;
}

interface UploadHandle {
  controller: AbortController;
  /** The media id, known as soon as the server has the upload (before its bytes); rejects when it fails to start. */
  mediaId: Promise<number>;
  knownId: number | null;
}

/**
 * The composer's uploads: each file starts uploading as soon as it is chosen, with its own progress. Posting
 * detaches them: they keep running (the server attaches them to the post and publishes it when the last one
 * completes), while the composer is free for the next post. A video's renditions are made and sent in the same
 * upload (app/lib/uploads.ts), the original's completion last. The chat's composer uses it for "message" uploads.
 */
export function useAttachments(csrfToken: string | null, purpose: Extract<UploadPurpose, "post" | "message"> = "post") {
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const handles = useRef(new Map<string, UploadHandle>());

  const update = useCallback((key: string, change: Partial<Attachment>) => {
    setAttachments((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }, []);

  const add = useCallback(
    (files: File[]) => {
      const added: Attachment[] = files.map((file) => ({
        key: crypto.randomUUID(),
        name: file.name,
        kind: file.type.startsWith("video/") ? "video" : "image",
        thumbnailUrl: file.type.startsWith("image/") ? URL.createObjectURL(file) : null,
        progress: 0,
        state: "uploading",
        conversion: null,
      }));
      added.forEach((attachment, index) => {
        const controller = new AbortController();
        const handle: UploadHandle = { controller, knownId: null, mediaId: Promise.resolve(0) };
        let started: (id: number) => void = () => undefined;
        const startedId = new Promise<number>((resolve) => {
          started = resolve;
        });
        const finished = uploadFile(files[index]!, {
          purpose,
          csrfToken,
          signal: controller.signal,
          onProgress: (fraction) => update(attachment.key, { progress: fraction }),
          onConversion: (state) =>
            setAttachments((list) =>
              list.map((item) =>
                item.key === attachment.key
                  ? { ...item, conversion: { state, progress: item.conversion?.progress ?? 0 } }
                  : item,
              ),
            ),
          onConvertProgress: (progress) =>
            setAttachments((list) =>
              list.map((item) =>
                item.key === attachment.key && item.conversion
                  ? { ...item, conversion: { ...item.conversion, progress } }
                  : item,
              ),
            ),
          onStarted: (id) => {
            handle.knownId = id;
            started(id);
          },
        }).then(
          (media) => {
            update(attachment.key, { state: "ready", progress: 1 });
            return media.id;
          },
          (error: unknown) => {
            if (!controller.signal.aborted) update(attachment.key, { state: "failed" });
            throw error;
          },
        );
        handle.mediaId = Promise.race([startedId, finished]);
        // Awaited only when posting; a failure is shown on the tile, not thrown into the void.
        handle.mediaId.catch(() => undefined);
        finished.catch(() => undefined);
        handles.current.set(attachment.key, handle);
      });
      setAttachments((list) => [...list, ...added]);
    },
    [csrfToken, purpose, update],
  );

  /** Files picked from the vault: ready at once, their ids known; nothing is uploaded. */
  const addFromVault = useCallback((items: VaultItem[]) => {
    const added: Attachment[] = items.map((item) => ({
      key: crypto.randomUUID(),
      name: "",
      kind: item.kind,
      thumbnailUrl: item.kind === "image" || item.thumbnailUrl !== item.url ? item.thumbnailUrl : null,
      progress: 1,
      state: "ready",
      conversion: null,
      fromVault: true,
    }));
    added.forEach((attachment, index) =>
      handles.current.set(attachment.key, {
        controller: new AbortController(),
        knownId: null,
        mediaId: Promise.resolve(items[index]!.id),
      }),
    );
    setAttachments((list) => [...list, ...added]);
  }, []);

  const remove = useCallback(
    (key: string) => {
      const handle = handles.current.get(key);
      handles.current.delete(key);
      handle?.controller.abort();
      if (handle?.knownId)
        deleteUpload(handle.knownId, csrfToken).catch((error: unknown) =>
          console.warn("removing an upload failed", error),
        );
      setAttachments((list) => {
        const gone = list.find((item) => item.key === key);
        if (gone?.thumbnailUrl && !gone.fromVault) URL.revokeObjectURL(gone.thumbnailUrl);
        return list.filter((item) => item.key !== key);
      });
    },
    [csrfToken],
  );

  /** The media ids in the order shown; waits for uploads whose id the server has not given yet. */
  const mediaIds = useCallback(
    () => Promise.all(attachments.map((item) => handles.current.get(item.key)!.mediaId)),
    [attachments],
  );

  /** After posting: forget the files without stopping their uploads. */
  const detach = useCallback(() => {
    handles.current.clear();
    setAttachments((list) => {
      for (const item of list) if (item.thumbnailUrl && !item.fromVault) URL.revokeObjectURL(item.thumbnailUrl);
      return [];
    });
  }, []);

  // Leaving the page before posting: the unposted uploads stop.
  useEffect(() => {
    const current = handles.current;
    return () => current.forEach((handle) => handle.controller.abort());
  }, []);

  return { attachments, add, addFromVault, remove, mediaIds, detach };
}
