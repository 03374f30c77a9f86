import { useCallback, useEffect, useReducer, useRef } from "react";
import { parseFrame } from "@shared/chat-events";
import {
  LIVE_HEARTBEAT_MS,
  liveServerFrame,
  liveSocketPath,
  type LiveClientFrame,
  type LiveServerFrame,
} from "@shared/live-events";
import { connectSocket, sameOriginSocketUrl, type SocketConnection } from "~/lib/user-channel";
import { useUpdateActions } from "~/lib/updates";
import { FINAL_CLOSES, initialLiveRoom, liveRoomReducer, type LiveRoomState } from "~/components/live/live-room-state";

type SignalFrame = Extract<LiveServerFrame, { type: "signal" | "peer-joined" | "peer-left" | "hello" }>;

/**
 * A stream's LiveRoom socket (/ws/live/{id}; the session cookie and the Worker's checks decide who may open it):
 * the room's state for the screen, `send` for chat and the creator's moderation, and the signalling frames for the
 * media (`onMedia`). The creator's tab also sends the heartbeat that keeps the stream on air. The socket reconnects
 * like the user channel, except after the room closed it for good (ended, full, removed, shut out, flooding); closed
 * because the session ended, it asks for the updates summary, whose 401 leaves for /login.
 */
export function useLiveRoom(
  streamId: number,
  options: {
    creator: boolean;
    initialTipsCents: number;
    initialViewers: number;
    initialPeakViewers?: number;
    enabled?: boolean;
    onMedia?: (frame: SignalFrame) => void;
  },
): { state: LiveRoomState; send: (frame: LiveClientFrame) => void; dismiss: () => void } {
  const [state, dispatch] = useReducer(liveRoomReducer, undefined, () =>
    initialLiveRoom(options.initialTipsCents, options.initialViewers, options.initialPeakViewers),
  );
  const onMedia = useRef(options.onMedia);
  onMedia.current = options.onMedia;
  const connection = useRef<SocketConnection | null>(null);
  const enabled = options.enabled ?? true;
  const { refresh } = useUpdateActions();
  const askSignedIn = useRef(refresh);
  askSignedIn.current = refresh;

  useEffect(() => {
    if (!enabled) return;
    const opened = connectSocket({
      url: sameOriginSocketUrl(window.location, liveSocketPath(streamId)),
      parse: (data) => parseFrame(liveServerFrame, data),
      onFrame: (frame) => {
        dispatch({ type: "frame", frame });
        if (
          frame.type === "signal" ||
          frame.type === "peer-joined" ||
          frame.type === "peer-left" ||
          frame.type === "hello"
        )
          onMedia.current?.(frame);
      },
      onClose: (code, reason) => {
        dispatch({ type: "closed", code, reason });
        return !FINAL_CLOSES.has(code);
      },
      onSessionEnded: () => askSignedIn.current(),
    });
    connection.current = opened;
    return () => {
      opened.close();
      if (connection.current === opened) connection.current = null;
    };
  }, [streamId, enabled]);

  useEffect(() => {
    if (!enabled || !options.creator) return;
    const beat = () => connection.current?.send(JSON.stringify({ type: "heartbeat" } satisfies LiveClientFrame));
    const timer = setInterval(beat, LIVE_HEARTBEAT_MS);
    return () => clearInterval(timer);
  }, [enabled, options.creator]);

  const send = useCallback((frame: LiveClientFrame) => connection.current?.send(JSON.stringify(frame)), []);
  const dismiss = useCallback(() => dispatch({ type: "dismiss" }), []);
  return { state, send, dismiss };
}
