import { useCallback, useEffect, useRef, useState } from "react";

export interface CameraState {
  /** One MediaStream for the page's life; a new device swaps its track in place. */
  stream: MediaStream | null;
  /** Why the camera or microphone could not be opened (not allowed, none there). */
  failed: "denied" | "missing" | null;
  cameras: MediaDeviceInfo[];
  microphones: MediaDeviceInfo[];
  cameraId: string;
  microphoneId: string;
  microphoneOn: boolean;
  cameraOn: boolean;
}

const constraintOf = (deviceId: string): MediaTrackConstraints | boolean =>
  deviceId ? { deviceId: { exact: deviceId } } : true;

/**
 * The creator's camera and microphone for /live/start: opened when the screen opens, a device list to choose
 * from (labels appear once permission is given), mute and camera-off (the track is disabled, so viewers get
 * silence or black without a new connection), and `onTrack` for every track swapped in, which the transport
 * forwards to the viewers. Everything stops when the screen closes.
 */
export function useCamera(onTrack: (track: MediaStreamTrack) => void) {
  const [state, setState] = useState<CameraState>({
    stream: null,
    failed: null,
    cameras: [],
    microphones: [],
    cameraId: "",
    microphoneId: "",
    microphoneOn: true,
    cameraOn: true,
  });
  const streamRef = useRef<MediaStream | null>(null);
  const swapped = useRef(onTrack);
  swapped.current = onTrack;

  const listDevices = useCallback(async (stream: MediaStream) => {
    const devices = await navigator.mediaDevices.enumerateDevices();
    setState((current) => ({
      ...current,
      cameras: devices.filter((device) => device.kind === "videoinput"),
      microphones: devices.filter((device) => device.kind === "audioinput"),
      cameraId: stream.getVideoTracks()[0]?.getSettings().deviceId ?? current.cameraId,
      microphoneId: stream.getAudioTracks()[0]?.getSettings().deviceId ?? current.microphoneId,
    }));
  }, []);

  useEffect(() => {
    let gone = false;
    if (!navigator.mediaDevices?.getUserMedia) {
      setState((current) => ({ ...current, failed: "missing" }));
      return;
    }
    navigator.mediaDevices
      .getUserMedia({ video: true, audio: true })
      .then(async (stream) => {
        if (gone) {
          for (const track of stream.getTracks()) track.stop();
          return;
        }
        streamRef.current = stream;
        setState((current) => ({ ...current, stream, failed: null }));
        await listDevices(stream);
      })
      .catch((error: unknown) => {
        const name = error instanceof DOMException ? error.name : "";
        setState((current) => ({
          ...current,
          failed: name === "NotAllowedError" || name === "SecurityError" ? "denied" : "missing",
        }));
      });
    return () => {
      gone = true;
      for (const track of streamRef.current?.getTracks() ?? []) track.stop();
      streamRef.current = null;
    };
  }, [listDevices]);

  /** Swaps the camera (kind "video") or microphone (kind "audio") for another device. */
  const choose = useCallback(async (kind: "video" | "audio", deviceId: string) => {
    const stream = streamRef.current;
    if (!stream) return;
    let fresh: MediaStream;
    try {
      fresh = await navigator.mediaDevices.getUserMedia(
        kind === "video" ? { video: constraintOf(deviceId) } : { audio: constraintOf(deviceId) },
      );
    } catch (error) {
      // The device went away or is busy: the one in use stays.
      console.warn("the chosen device could not be opened", error);
      return;
    }
    const track = kind === "video" ? fresh.getVideoTracks()[0] : fresh.getAudioTracks()[0];
    if (!track) return;
    for (const old of kind === "video" ? stream.getVideoTracks() : stream.getAudioTracks()) {
      track.enabled = old.enabled;
      stream.removeTrack(old);
      old.stop();
    }
    stream.addTrack(track);
    swapped.current(track);
    setState((current) =>
      kind === "video" ? { ...current, cameraId: deviceId } : { ...current, microphoneId: deviceId },
    );
  }, []);

  const toggle = useCallback((kind: "video" | "audio") => {
    const stream = streamRef.current;
    if (!stream) return;
    const tracks = kind === "video" ? stream.getVideoTracks() : stream.getAudioTracks();
    const on = !(tracks[0]?.enabled ?? false);
    for (const track of tracks) track.enabled = on;
    setState((current) => (kind === "video" ? { ...current, cameraOn: on } : { ...current, microphoneOn: on }));
  }, []);

  return { camera: state, choose, toggle };
}
