import {
  CLOSE_CODES,
  parseUserChannelFrame,
  PING,
  PONG,
  USER_CHANNEL_PATH,
  type UserChannelEvent,
} from "@shared/user-channel-events";
import { networkAnswered } from "~/lib/network-answers";

export { parseUserChannelFrame, type UserChannelEvent } from "@shared/user-channel-events";

/** First retry after about 1 s, doubling up to 30 s; back to the start after a successful open. */
const RECONNECT_BASE_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;
/** Keep-alive interval: under the idle timeouts of common proxies (often 60 s). */
export const PING_INTERVAL_MS = 25_000;

/**
 * Delay before reconnection attempt `attempt` (0 = the first retry): 1 s, 2 s, 4 s … capped at 30 s, of which a
 * random part (up to half) is taken off so that many clients cut off at once do not come back in step.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, Math.min(attempt, 30)));
  const jitter = Math.min(Math.max(random(), 0), 1);
  return Math.round(ceiling * (1 - jitter / 2));
}

/** Closes after which trying again is pointless: signed out, refused by policy. Anything else is transient. */
export function shouldReconnect(closeCode: number): boolean {
  return (
    closeCode !== CLOSE_CODES.policy && closeCode !== CLOSE_CODES.unauthenticated && closeCode !== CLOSE_CODES.forbidden
  );
}

/** `ws://host/path` or `wss://…` for the page's own origin (the session cookie goes along). */
export function sameOriginSocketUrl(location: { protocol: string; host: string }, path: string): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}${path}`;
}

/** `ws://host/ws/updates` or `wss://…` for the page's own origin. */
export const userChannelUrl = (location: { protocol: string; host: string }) =>
  sameOriginSocketUrl(location, USER_CHANNEL_PATH);

type SocketLike = Pick<WebSocket, "send" | "close" | "readyState"> & {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
};

/** Seams for tests; the browser defaults are used when omitted. */
export interface UserChannelOptions {
  /**
   * The server closed the socket because its session ended (4401: signed out, the password changed elsewhere,
   * suspended): the socket stops for good, and this asks the server whether the page is still signed in (a 401
   * leaves for /login). Every socket kind reacts alike: the updates channel, a chat, a live room.
   */
  onSessionEnded?: () => void;
  url?: string;
  createSocket?: (url: string) => SocketLike;
  /** Where the `online` event is listened for (window). */
  events?: Pick<EventTarget, "addEventListener" | "removeEventListener"> | null;
  random?: () => number;
}

const OPEN = 1;

/** A socket of the page's own origin kept open: what `connectSocket` needs to know. */
export interface SocketOptions<Frame> extends UserChannelOptions {
  url: string;
  /** A valid frame, or null for junk (ignored). */
  parse: (data: unknown) => Frame | null;
  onFrame: (frame: Frame) => void;
  /**
   * Called after every open, the first one too: the caller catches up on what it missed, while disconnected or
   * between fetching its data and this socket's first open (an event sent then reached no socket).
   */
  onOpen?: () => void;
  /**
   * Called when the server closes the socket, with its code and reason; returning false stops for good (a room
   * that said why it will not take the socket back). Otherwise reconnection follows the usual rule.
   */
  onClose?: (code: number, reason: string) => boolean | void;
}

export interface SocketConnection {
  /** Sends a text frame when the socket is open; dropped otherwise (frames sent this way are hints, not data). */
  send(text: string): void;
  close(): void;
}

/**
 * Keeps a same-origin socket open and calls `onFrame` for every valid frame. Reconnects with backoff and jitter,
 * at once when the browser comes back online, and not at all after the server closes for authentication or
 * policy reasons (the session's end calls `onSessionEnded`); a ping unanswered within PING_INTERVAL_MS counts as
 * a dead connection. An open and a pong tell the page that the network answers (network-answers.ts). Browser only
 * (call it from an effect). The user channel, the chat rooms and the live rooms use it.
 */
export function connectSocket<Frame>(options: SocketOptions<Frame>): SocketConnection {
  const { url, parse, onFrame, onOpen, onClose } = options;
  const createSocket = options.createSocket ?? ((address: string) => new WebSocket(address));
  const events = options.events === undefined ? (typeof window === "undefined" ? null : window) : options.events;
  const random = options.random ?? Math.random;

  let socket: SocketLike | null = null;
  let attempt = 0;
  /** Disposed, or closed by the server for good. */
  let finished = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let awaitingPong = false;

  const guarded = (call: () => void) => {
    try {
      call();
    } catch (error) {
      console.error("socket listener failed", error);
    }
  };

  const stopPing = () => {
    clearInterval(pingTimer);
    pingTimer = undefined;
    awaitingPong = false;
  };

  /**
   * Forgets the socket (handlers detached; closed with `closeWith` unless it is already closed) and plans the
   * next attempt unless told not to. A browser may only close with 1000 or 3000–4999.
   */
  const drop = (current: SocketLike, reconnect: boolean, closeWith?: number) => {
    if (socket !== current) return;
    socket = null;
    stopPing();
    current.onopen = current.onmessage = current.onclose = current.onerror = null;
    if (closeWith !== undefined) {
      try {
        current.close(closeWith);
      } catch {
        // already closing
      }
    }
    if (!reconnect) finished = true;
    else scheduleRetry();
  };

  function scheduleRetry() {
    if (finished || retryTimer !== undefined) return;
    retryTimer = setTimeout(
      () => {
        retryTimer = undefined;
        connect();
      },
      reconnectDelay(attempt++, random),
    );
  }

  function connect() {
    if (finished || socket) return;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    let current: SocketLike;
    try {
      current = createSocket(url);
    } catch {
      scheduleRetry();
      return;
    }
    socket = current;
    current.onopen = () => {
      attempt = 0;
      networkAnswered();
      pingTimer = setInterval(() => {
        if (awaitingPong) {
          // No answer to the last ping: the connection is dead even if no close event came.
          drop(current, true, CLOSE_CODES.noPong);
          return;
        }
        if (current.readyState !== OPEN) return;
        awaitingPong = true;
        try {
          current.send(PING);
        } catch {
          drop(current, true, CLOSE_CODES.normal);
        }
      }, PING_INTERVAL_MS);
      if (onOpen) guarded(onOpen);
    };
    current.onmessage = (message) => {
      if (message.data === PONG) {
        awaitingPong = false;
        networkAnswered();
        return;
      }
      const frame = parse(message.data);
      if (frame !== null) guarded(() => onFrame(frame));
    };
    current.onclose = (close) => {
      let again = shouldReconnect(close.code);
      if (close.code === CLOSE_CODES.unauthenticated && options.onSessionEnded) guarded(options.onSessionEnded);
      if (onClose) {
        guarded(() => {
          if (onClose(close.code, close.reason) === false) again = false;
        });
      }
      drop(current, again);
    };
    current.onerror = () => {
      // A close event follows an error; reconnection is decided there.
    };
  }

  const onOnline = () => {
    if (finished || socket) return;
    attempt = 0;
    connect();
  };

  events?.addEventListener("online", onOnline);
  connect();

  return {
    send(text) {
      if (socket?.readyState !== OPEN) return;
      try {
        socket.send(text);
      } catch {
        // Closing: the close event decides what happens next.
      }
    },
    close() {
      finished = true;
      clearTimeout(retryTimer);
      retryTimer = undefined;
      events?.removeEventListener("online", onOnline);
      if (socket) drop(socket, false, CLOSE_CODES.normal);
    },
  };
}

/**
 * Opens the signed-in user's real-time channel and calls `onEvent` for every valid event. After every open (the
 * first too) it also emits one `NewUpdate`, so the caller refetches whatever it may have missed meanwhile. Returns
 * a disposer that closes the socket and stops everything.
 */
export function connectUserChannel(
  onEvent: (event: UserChannelEvent) => void,
  options: UserChannelOptions = {},
): () => void {
  const connection = connectSocket({
    ...options,
    url: options.url ?? userChannelUrl(window.location),
    parse: parseUserChannelFrame,
    onFrame: onEvent,
    onOpen: () => onEvent({ event: "NewUpdate" }),
  });
  return () => connection.close();
}
