/**
 * A tiny WHIP/WHEP relay for end-to-end tests.
 *
 * A browser publishes a live stream with WHIP (POST /whip/<key>) and any number of
 * browsers watch it with WHEP (POST /whep/<key>). The relay is a werift peer that
 * copies the publisher's RTP packets to every viewer of the same key. Everything
 * runs on 127.0.0.1; nothing is decoded or re-encoded.
 */
import { createServer } from "node:http";
import { randomUUID } from "node:crypto";
import { clearInterval, setInterval } from "node:timers";
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, useNACK, usePLI, useREMB } from "werift";

const LOOPBACK = "127.0.0.1";

/** Options for every werift peer: VP8 + Opus only, loopback host candidates only, no STUN. */
const peerConfig = () => ({
  codecs: {
    video: [
      new RTCRtpCodecParameters({
        mimeType: "video/VP8",
        clockRate: 90000,
        rtcpFeedback: [useNACK(), usePLI(), useREMB()],
      }),
    ],
    audio: [new RTCRtpCodecParameters({ mimeType: "audio/opus", clockRate: 48000, channels: 2 })],
  },
  iceServers: [], // werift defaults to Google's STUN server; we want none.
  iceUseIpv4: false, // skip the machine's real interfaces...
  iceUseIpv6: false,
  iceAdditionalHostAddresses: [LOOPBACK], // ...and gather only 127.0.0.1
  iceInterfaceAddresses: { udp4: LOOPBACK }, // bind the UDP sockets to loopback
  iceFilterCandidatePair: (pair) => pair.remoteCandidate.host === LOOPBACK,
});

/** Drop every `a=candidate` line that is not a 127.0.0.1 candidate. */
const loopbackOnly = (sdp) =>
  sdp
    .split(/\r?\n/)
    .filter((line) => !line.startsWith("a=candidate:") || line.split(" ")[4] === LOOPBACK)
    .join("\r\n");

/**
 * Give the offer to a new peer, wait until all its candidates are gathered and return the answer SDP.
 * On failure the peer is closed and the error goes on to become a 400.
 */
async function answer(pc, offerSdp) {
  try {
    await pc.setRemoteDescription({ type: "offer", sdp: loopbackOnly(offerSdp) });
    await pc.setLocalDescription(await pc.createAnswer());
    if (pc.iceGatheringState !== "complete") {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("ICE gathering did not complete within 20 s")), 20_000);
        const { unSubscribe } = pc.iceGatheringStateChange.subscribe((state) => {
          if (state !== "complete") return;
          clearTimeout(timer);
          unSubscribe();
          resolve();
        });
      });
    }
    return loopbackOnly(pc.localDescription.sdp);
  } catch (error) {
    await pc.close().catch(() => {});
    throw error;
  }
}

/** Read the whole request body as text (at most 1 MB). */
async function readBody(req) {
  let body = "";
  for await (const chunk of req.setEncoding("utf8")) {
    body += chunk;
    if (body.length > 1e6) throw new Error("body too large");
  }
  return body;
}

/**
 * Start the relay on a free port of 127.0.0.1.
 * `whipUrl` and `whepUrl` contain the literal text `{stream}`, to be replaced by a stream key.
 * @returns {Promise<{ origin: string, whipUrl: string, whepUrl: string, stop: () => Promise<void> }>}
 */
export async function startWhipRelay() {
  /** Stream key -> { videoReceiver, videoSsrc, viewers: Set<{ video, audio }> } of its current publisher. */
  const streams = new Map();
  /** Resource id -> close() for every answered WHIP and WHEP session. */
  const resources = new Map();
  /** Every open peer connection, including those still negotiating, for stop(). */
  const peers = new Set();
  const timers = new Set();

  /** Create a werift peer connection with the loopback-only config. */
  const newPeer = () => {
    const pc = new RTCPeerConnection(peerConfig());
    peers.add(pc);
    return pc;
  };

  /** Ask the publisher of `stream` for a fresh video keyframe (RTCP PLI). */
  const requestKeyframe = (stream) => {
    if (stream.videoSsrc === undefined || !stream.videoReceiver) return;
    stream.videoReceiver.sendRtcpPLI(stream.videoSsrc).catch(() => {});
  };

  /** Ask for a keyframe now and then every 2 s for 10 s, so a new viewer's picture starts at once. */
  const keyframeBurst = (stream) => {
    requestKeyframe(stream);
    let left = 5;
    const timer = setInterval(() => {
      requestKeyframe(stream);
      if (--left === 0) {
        clearInterval(timer);
        timers.delete(timer);
      }
    }, 2000);
    timers.add(timer);
  };

  /** Register a peer connection as a resource that DELETE or stop() can close. */
  const addResource = (pc, onClose) => {
    const id = randomUUID();
    resources.set(id, () => {
      resources.delete(id);
      peers.delete(pc);
      onClose();
      return pc.close().catch(() => {});
    });
    return id;
  };

  /** WHIP: accept a publisher and remember its tracks under `key` (a new publisher replaces the old one). */
  async function publish(key, offerSdp) {
    const pc = newPeer();
    const stream = { viewers: new Set(), videoSsrc: undefined, videoReceiver: undefined };
    pc.onTrack.subscribe((track) => {
      track.onReceiveRtp.subscribe((rtp) => {
        if (track.kind === "video") stream.videoSsrc = rtp.header.ssrc;
        for (const viewer of stream.viewers) viewer[track.kind]?.writeRtp(rtp);
      });
    });
    const sdp = await answer(pc, offerSdp);
    stream.videoReceiver = pc.getTransceivers().find((t) => t.kind === "video")?.receiver;
    pc.connectionStateChange.subscribe((state) => {
      if (state === "connected" && stream.viewers.size > 0) keyframeBurst(stream);
    });
    const old = streams.get(key);
    if (old) for (const viewer of old.viewers) stream.viewers.add(viewer);
    streams.set(key, stream);
    const id = addResource(pc, () => streams.get(key) === stream && streams.delete(key));
    return { id, sdp };
  }

  /** WHEP: accept a viewer of `key` and forward the publisher's packets to it; null if nobody publishes. */
  async function view(key, offerSdp) {
    const stream = streams.get(key);
    if (!stream) return null;
    const pc = newPeer();
    const viewer = { video: new MediaStreamTrack({ kind: "video" }), audio: new MediaStreamTrack({ kind: "audio" }) };
    pc.addTransceiver(viewer.video, { direction: "sendonly" });
    pc.addTransceiver(viewer.audio, { direction: "sendonly" });
    pc.connectionStateChange.subscribe((state) => {
      if (state === "connected") requestKeyframe(streams.get(key) ?? stream);
    });
    const sdp = await answer(pc, offerSdp);
    stream.viewers.add(viewer);
    keyframeBurst(stream);
    const id = addResource(pc, () => (streams.get(key) ?? stream).viewers.delete(viewer));
    return { id, sdp };
  }

  /** Route one HTTP request; every failure becomes a 400 instead of a crash. */
  async function handle(req, res) {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Expose-Headers", "Location");
    const path = new URL(req.url, "http://relay").pathname;
    const [, kind, rawKey] = path.split("/");
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "Access-Control-Allow-Methods": "POST, DELETE, OPTIONS",
        "Access-Control-Allow-Headers": "Content-Type",
      });
      return res.end();
    }
    if (req.method === "DELETE" && kind === "resource" && rawKey) {
      const close = resources.get(rawKey);
      if (!close) return res.writeHead(404).end();
      await close();
      return res.writeHead(204).end();
    }
    if (req.method === "POST" && (kind === "whip" || kind === "whep") && rawKey) {
      const offer = await readBody(req);
      const isSdp = /application\/sdp/i.test(req.headers["content-type"] ?? "");
      if (!isSdp || !/^v=0[\s\S]*\nm=(audio|video) /.test(offer)) {
        return res.writeHead(400).end("expected an SDP offer");
      }
      const key = decodeURIComponent(rawKey);
      const result = kind === "whip" ? await publish(key, offer) : await view(key, offer);
      if (!result) return res.writeHead(404).end("no publisher for this stream");
      res.writeHead(201, { "Content-Type": "application/sdp", Location: `/resource/${result.id}` });
      return res.end(result.sdp);
    }
    res.writeHead(404).end();
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(400);
      res.end(String(error?.message ?? error));
    });
  });
  await new Promise((resolve) => server.listen(0, LOOPBACK, resolve));
  const origin = `http://${LOOPBACK}:${server.address().port}`;

  return {
    origin,
    whipUrl: `${origin}/whip/{stream}`,
    whepUrl: `${origin}/whep/{stream}`,
    /** Close every peer connection, then the HTTP server. */
    async stop() {
      for (const timer of timers) clearInterval(timer);
      timers.clear();
      await Promise.all([...resources.values()].map((close) => close()));
      await Promise.all([...peers].map((pc) => pc.close().catch(() => {})));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
