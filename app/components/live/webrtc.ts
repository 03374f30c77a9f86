import type { LiveIceServer } from "@shared/contracts/live";

/**
 * The browser's half of live video (worker/live/transports.ts is the server's): WebRTC from the creator's camera
 * to each viewer (`p2p`, signalled through the stream's LiveRoom socket), or WHIP out and WHEP in through an SFU
 * (`whip`). Nothing here knows React; the studio and the viewer screen drive it.
 */

export interface MediaPlan {
  iceServers: LiveIceServer[];
  /** Test mode: only 127.0.0.1 candidates leave the browser (and are accepted), so traffic stays on loopback. */
  loopbackOnly: boolean;
}

/** What travels through the LiveRoom between the creator and one viewer (shared/live-events.ts checks it). */
export type Signal =
  | { description: { type: "offer" | "answer"; sdp: string } }
  | { candidate: { candidate: string; sdpMid?: string | null; sdpMLineIndex?: number | null } | null };

/** Whether a candidate may be used under the plan (the end-of-candidates marker, "", always may). */
export function keepsCandidate(candidate: string, loopbackOnly: boolean): boolean {
  return !loopbackOnly || candidate === "" || / 127\.0\.0\.1 /.test(candidate);
}

/** An SDP with the candidates the plan does not allow taken out (WHIP/WHEP send every candidate in the SDP). */
export function sdpForPlan(sdp: string, loopbackOnly: boolean): string {
  if (!loopbackOnly) return sdp;
  return sdp
    .split("\r\n")
    .filter((line) => !line.startsWith("a=candidate:") || keepsCandidate(line.slice(2), true))
    .join("\r\n");
}

const configurationOf = (plan: MediaPlan): RTCConfiguration => ({
  iceServers: plan.iceServers,
  bundlePolicy: "max-bundle",
});

function sendCandidates(connection: RTCPeerConnection, plan: MediaPlan, send: (signal: Signal) => void) {
  connection.onicecandidate = (event) => {
    if (event.candidate && !keepsCandidate(event.candidate.candidate, plan.loopbackOnly)) return;
    const found = event.candidate;
    send({
      candidate: found
        ? { candidate: found.candidate, sdpMid: found.sdpMid, sdpMLineIndex: found.sdpMLineIndex }
        : null,
    });
  };
}

async function addCandidate(connection: RTCPeerConnection, candidate: RTCIceCandidateInit | null, plan: MediaPlan) {
  if (!candidate || !keepsCandidate(candidate.candidate ?? "", plan.loopbackOnly)) return;
  await connection.addIceCandidate(candidate);
}

/** Runs async steps one after another (signals must be applied in the order they came), logging failures. */
function serial() {
  let chain = Promise.resolve();
  return (step: () => Promise<void>) => {
    chain = chain.then(step).catch((error: unknown) => console.warn("live signalling step failed", error));
  };
}

/**
 * The creator's side of p2p: one connection per viewer, offered the camera's tracks when the room says the viewer
 * arrived; answers and candidates from that viewer are applied in order.
 */
export class P2PBroadcast {
  private peers = new Map<string, RTCPeerConnection>();
  private run = serial();

  constructor(
    private stream: MediaStream,
    private plan: MediaPlan,
    private send: (to: string, signal: Signal) => void,
  ) {}

  get size(): number {
    return this.peers.size;
  }

  add(peerId: string): void {
    this.remove(peerId);
    const connection = new RTCPeerConnection(configurationOf(this.plan));
    this.peers.set(peerId, connection);
    for (const track of this.stream.getTracks()) connection.addTrack(track, this.stream);
    sendCandidates(connection, this.plan, (signal) => this.send(peerId, signal));
    this.run(async () => {
      const offer = await connection.createOffer();
      await connection.setLocalDescription(offer);
      this.send(peerId, { description: { type: "offer", sdp: offer.sdp ?? "" } });
    });
  }

  signal(from: string, signal: Signal): void {
    const connection = this.peers.get(from);
    if (!connection) return;
    this.run(async () => {
      if ("description" in signal) {
        if (signal.description.type === "answer" && connection.signalingState === "have-local-offer")
          await connection.setRemoteDescription(signal.description);
      } else {
        await addCandidate(connection, signal.candidate, this.plan);
      }
    });
  }

  remove(peerId: string): void {
    this.peers.get(peerId)?.close();
    this.peers.delete(peerId);
  }

  /** A new camera or microphone: every viewer gets it without a new offer. */
  async replaceTrack(track: MediaStreamTrack): Promise<void> {
    for (const connection of this.peers.values()) {
      const sender = connection.getSenders().find((candidate) => candidate.track?.kind === track.kind);
      await sender?.replaceTrack(track);
    }
  }

  close(): void {
    for (const peerId of [...this.peers.keys()]) this.remove(peerId);
  }
}

/** A viewer's side of p2p: answers the creator's offer and hands over the stream once its tracks arrive. */
export class P2PWatch {
  private connection: RTCPeerConnection | null = null;
  private from: string | null = null;
  private run = serial();

  constructor(
    private plan: MediaPlan,
    private send: (to: string, signal: Signal) => void,
    private onStream: (stream: MediaStream) => void,
  ) {}

  signal(from: string, signal: Signal): void {
    this.run(async () => {
      if ("description" in signal) {
        if (signal.description.type !== "offer") return;
        // A new offer (the creator's tab came back, or offers again): a fresh connection.
        this.connection?.close();
        const connection = new RTCPeerConnection(configurationOf(this.plan));
        this.connection = connection;
        this.from = from;
        const incoming = new MediaStream();
        connection.ontrack = (event) => {
          const stream = event.streams[0] ?? incoming;
          if (!event.streams[0]) incoming.addTrack(event.track);
          this.onStream(stream);
        };
        sendCandidates(connection, this.plan, (candidate) => this.send(from, candidate));
        await connection.setRemoteDescription(signal.description);
        const answer = await connection.createAnswer();
        await connection.setLocalDescription(answer);
        this.send(from, { description: { type: "answer", sdp: answer.sdp ?? "" } });
      } else if (this.connection && from === this.from) {
        await addCandidate(this.connection, signal.candidate, this.plan);
      }
    });
  }

  close(): void {
    this.connection?.close();
    this.connection = null;
  }
}

/** Waits until the browser has gathered its candidates (WHIP/WHEP send one SDP with all of them), at most `ms`. */
function gathered(connection: RTCPeerConnection, ms = 2_000): Promise<void> {
  if (connection.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      connection.removeEventListener("icegatheringstatechange", check);
      resolve();
    };
    const check = () => {
      if (connection.iceGatheringState === "complete") done();
    };
    const timer = setTimeout(done, ms);
    connection.addEventListener("icegatheringstatechange", check);
  });
}

/** A WHIP/WHEP session: its connection and the resource the endpoint made (DELETE ends it). */
export interface HttpMediaSession {
  connection: RTCPeerConnection;
  replaceTrack(track: MediaStreamTrack): Promise<void>;
  close(): void;
}

/** The offer/answer exchange of WHIP (RFC 9725) and WHEP: one POST of application/sdp, answered 201 with a Location. */
async function exchange(endpoint: string, connection: RTCPeerConnection, plan: MediaPlan): Promise<HttpMediaSession> {
  try {
    return await offerTo(endpoint, connection, plan);
  } catch (error) {
    connection.close();
    throw error;
  }
}

async function offerTo(endpoint: string, connection: RTCPeerConnection, plan: MediaPlan): Promise<HttpMediaSession> {
  const offer = await connection.createOffer();
  await connection.setLocalDescription(offer);
  await gathered(connection);
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/sdp" },
    body: sdpForPlan(connection.localDescription?.sdp ?? offer.sdp ?? "", plan.loopbackOnly),
  });
  if (response.status !== 201 && response.status !== 200) throw new Error(`${endpoint} answered ${response.status}`);
  const location = response.headers.get("Location");
  const resource = location ? new URL(location, endpoint).href : null;
  await connection.setRemoteDescription({ type: "answer", sdp: sdpForPlan(await response.text(), plan.loopbackOnly) });
  return {
    connection,
    async replaceTrack(track) {
      const sender = connection.getSenders().find((candidate) => candidate.track?.kind === track.kind);
      await sender?.replaceTrack(track);
    },
    close() {
      connection.close();
      if (resource) void fetch(resource, { method: "DELETE" }).catch(() => undefined);
    },
  };
}

/** Publishes the camera and microphone to a WHIP endpoint. */
export function whipPublish(endpoint: string, stream: MediaStream, plan: MediaPlan): Promise<HttpMediaSession> {
  const connection = new RTCPeerConnection(configurationOf(plan));
  for (const track of stream.getTracks())
    connection.addTransceiver(track, { direction: "sendonly", streams: [stream] });
  return exchange(endpoint, connection, plan);
}

/** Plays a stream from a WHEP endpoint; `onStream` gets it once its tracks arrive. */
export function whepPlay(
  endpoint: string,
  plan: MediaPlan,
  onStream: (stream: MediaStream) => void,
): Promise<HttpMediaSession> {
  const connection = new RTCPeerConnection(configurationOf(plan));
  connection.addTransceiver("video", { direction: "recvonly" });
  connection.addTransceiver("audio", { direction: "recvonly" });
  const incoming = new MediaStream();
  connection.ontrack = (event) => {
    incoming.addTrack(event.track);
    onStream(incoming);
  };
  return exchange(endpoint, connection, plan);
}

/**
 * Opens a WHIP or WHEP session for an effect: `onOpen` once it is up (not if the effect was cleaned up first,
 * in which case it is closed at once), `onFail` if it could not be. Returns the effect's cleanup.
 */
export function keepSession(
  open: () => Promise<HttpMediaSession>,
  on: { open?: (session: HttpMediaSession) => void; fail: (error: unknown) => void },
): () => void {
  let session: HttpMediaSession | null = null;
  let gone = false;
  open().then(
    (opened) => {
      if (gone) return opened.close();
      session = opened;
      on.open?.(opened);
    },
    (error: unknown) => {
      if (!gone) on.fail(error);
    },
  );
  return () => {
    gone = true;
    session?.close();
  };
}
