import { useEffect, useRef } from "react";
import { chatSocketPath, parseFrame, TYPING_EVERY_MS } from "@shared/chat-events";
import type { ChatClientFrame, ChatServerFrame } from "@shared/contracts/messages";
import { chatServerFrameShape } from "~/components/messages/chat-shapes";
import { connectSocket, sameOriginSocketUrl, type SocketConnection } from "~/lib/user-channel";
import { useUpdateActions } from "~/lib/updates";

const TYPING_FRAME = JSON.stringify({ type: "typing" } satisfies ChatClientFrame);

/**
 * The open conversation's socket (/ws/conversations/{id}, the session cookie decides who the member is): every
 * valid frame goes to `onFrame`, and after every open (the first too) `onOpen` runs so the thread fetches what it missed.
 * Answers `typing()`, which tells the other member at most once per TYPING_EVERY_MS. Closed because the session
 * ended, it asks for the updates summary, whose 401 leaves for /login (as the updates channel does).
 */
export function useChatRoom(
  conversationId: number,
  handlers: { onFrame: (frame: ChatServerFrame) => void; onOpen: () => void },
): { typing: () => void } {
  const latest = useRef(handlers);
  latest.current = handlers;
  const { refresh } = useUpdateActions();
  const askSignedIn = useRef(refresh);
  askSignedIn.current = refresh;
  const connection = useRef<SocketConnection | null>(null);
  const lastTypingAt = useRef(0);

  useEffect(() => {
    const opened = connectSocket({
      url: sameOriginSocketUrl(window.location, chatSocketPath(conversationId)),
      parse: (data) => parseFrame(chatServerFrameShape, data),
      onFrame: (frame) => latest.current.onFrame(frame),
      onOpen: () => latest.current.onOpen(),
      onSessionEnded: () => askSignedIn.current(),
    });
    connection.current = opened;
    return () => {
      opened.close();
      if (connection.current === opened) connection.current = null;
    };
  }, [conversationId]);

  const typing = useRef(() => {
    const now = Date.now();
    if (now - lastTypingAt.current < TYPING_EVERY_MS) return;
    lastTypingAt.current = now;
    connection.current?.send(TYPING_FRAME);
  });
  return { typing: typing.current };
}
