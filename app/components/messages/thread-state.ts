import type { MessageView } from "@shared/contracts/messages";

/** A message of the viewer's on its way: shown at once as "Sending…", replaced by the server's when it answers. */
export interface OutgoingMessage {
  clientId: string;
  text: string;
  /** Local thumbnails of the attached photos (null: a video). */
  thumbnails: (string | null)[];
}

/**
 * The messages of an open thread, oldest first, each once. They arrive from several places (the first page,
 * older pages, the socket, the send's answer, a catch-up after reconnecting, an unlock) in any order: a later
 * view of the same message replaces the earlier one (an unlocked message replaces its locked view). Pure.
 */
export function mergeMessages(current: MessageView[], incoming: MessageView[]): MessageView[] {
  if (incoming.length === 0) return current;
  const byId = new Map(current.map((message) => [message.id, message]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

/** The outgoing messages the server has not answered for yet: those whose client id is not among the stored ones. */
export function stillOutgoing(
  outgoing: OutgoingMessage[],
  messages: MessageView[],
  viewerId: number,
): OutgoingMessage[] {
  const stored = new Set(
    messages.filter((message) => message.senderId === viewerId).map((message) => message.clientId),
  );
  const left = outgoing.filter((item) => !stored.has(item.clientId));
  return left.length === outgoing.length ? outgoing : left;
}

/** The viewer's newest stored message when the other member has read it ("Seen" goes under it); else null. */
export function seenMessageId(messages: MessageView[], viewerId: number, otherLastReadSeq: number): number | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.senderId === viewerId) return otherLastReadSeq >= message.seq ? message.id : null;
  }
  return null;
}

/** The highest seq held: where a reconnecting socket catches up from. */
export const lastSeqOf = (messages: MessageView[]) => messages.at(-1)?.seq ?? 0;
