import { useEffect, useRef, useState, type ComponentType, type RefObject, type VideoHTMLAttributes } from "react";
import type { RenditionView } from "@shared/contracts/renditions";
import type { PlaybackProps } from "~/components/media/video-playback";

/** What a post's, message's or story's video carries for playback. */
export interface PlayableVideo {
  url: string;
  posterUrl: string | null;
  renditions: RenditionView[];
  hlsUrl: string | null;
}

/** The source the <video> has: a rendition's name, "Original", or "HLS"; no url while hls.js feeds it. */
export interface Playing {
  name: string;
  url?: string;
}

let loaded: ComponentType<PlaybackProps> | undefined;

/**
 * The video of a post, a message or a story. It renders as a plain <video> with its poster, starting on the lowest
 * rendition (which plays on any network, even before the page's scripts run); the choice by network and screen, the
 * switch down when the buffer runs dry, the quality menu and HLS come with ./video-playback, loaded once a video is
 * on the page, so that a feed's first load carries none of it. `menu`: offer the quality choice (not in stories,
 * whose stage takes every tap). The other attributes go to the <video>.
 */
export function VideoPlayer({
  video,
  videoRef,
  menu = true,
  frameClassName = "",
  ...attributes
}: {
  video: PlayableVideo;
  videoRef?: RefObject<HTMLVideoElement>;
  menu?: boolean;
  frameClassName?: string;
} & VideoHTMLAttributes<HTMLVideoElement>) {
  const ownRef = useRef<HTMLVideoElement>(null);
  const element = videoRef ?? ownRef;
  const lowest = video.renditions[0];
  const [playing, setPlaying] = useState<Playing>({ name: lowest?.name ?? "Original", url: lowest?.url ?? video.url });
  const [Playback, setPlayback] = useState(() => loaded);
  useEffect(() => {
    if (!Playback)
      void import("~/components/media/video-playback").then((module) => setPlayback(() => (loaded = module.Playback)));
  }, [Playback]);
  return (
    <div className={`relative ${frameClassName}`}>
      <video
        ref={element}
        src={playing.url}
        poster={video.posterUrl ?? undefined}
        data-rendition={playing.name}
        controls
        preload="none"
        playsInline
        {...attributes}
      />
      {Playback ? <Playback element={element} video={video} playing={playing} play={setPlaying} menu={menu} /> : null}
    </div>
  );
}
