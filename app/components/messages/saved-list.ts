import { changeCopy } from "~/lib/offline-copies";

/** Where the conversation list (/messages) keeps its offline copy (app/lib/offline-copies.ts). */
export const CONVERSATIONS_COPY = "conversations";

type Row = { id?: unknown };
type SavedList = { list?: { conversations?: unknown } | null };

/**
 * The list's offline copy once `conversationId` was read in its thread: that row's unread count gone, the rest as
 * saved. The list saves itself only while it is shown, so a thread opened from elsewhere (a notification, a push,
 * its address) would otherwise leave the count in the copy, and offline the list would show it still unread.
 */
export function markReadInSavedList(conversationId: number): Promise<void> {
  return changeCopy(CONVERSATIONS_COPY, (data) => {
    const list = (data as SavedList | null)?.list;
    if (!list || !Array.isArray(list.conversations)) return data;
    const conversations = (list.conversations as Row[]).map((row) =>
      row?.id === conversationId ? { ...row, unreadCount: 0 } : row,
    );
    return { ...(data as object), list: { ...list, conversations } };
  });
}
