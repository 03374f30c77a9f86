import type { RefObject } from "react";
import { ACCEPTED_MEDIA, type useAttachments } from "~/components/posts/use-attachments";

/**
 * The hidden file picker of the composers (a post, a message, a mass message), opened by a visible button through
 * `inputRef`: it starts uploading what still fits under `max` attachments, tells `onTooMany` when some files did
 * not fit, and clears itself so the same file can be picked again.
 */
export function MediaFileInput({
  inputRef,
  testId,
  uploads,
  max,
  onTooMany,
}: {
  inputRef: RefObject<HTMLInputElement>;
  testId: string;
  uploads: Pick<ReturnType<typeof useAttachments>, "attachments" | "add">;
  max: number;
  onTooMany: () => void;
}) {
  return (
    <input
      ref={inputRef}
      type="file"
      multiple
      accept={ACCEPTED_MEDIA}
      className="sr-only"
      tabIndex={-1}
      aria-hidden="true"
      data-testid={testId}
      onChange={(event) => {
        const files = [...(event.target.files ?? [])];
        event.target.value = "";
        const room = max - uploads.attachments.length;
        if (files.length > room) onTooMany();
        uploads.add(files.slice(0, Math.max(0, room)));
      }}
    />
  );
}
