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

/**
 * The video of a post, a message or a story. It renders as a plain <video> with its poster, on the lowest rendition
 * (which plays on any network, even before the page's scripts run); the choice by network and screen, the step
 * down when the buffer runs dry, the quality menu (where the video has controls) and HLS come with
 * ./video-playback, loaded once a video is on the page, so that a feed's first load carries none of it. The source
 * playing is the <video>'s data-rendition. `eager`: the video of an opened post, whose chosen source starts loading
 * before play. The other attributes go to the <video>.
 */
export function VideoPlayer({
  video,
  videoRef,
  eager,
  ...attributes
}: {
  video: PlayableVideo;
  videoRef?: RefObject<HTMLVideoElement>;
  eager?: boolean;
} & VideoHTMLAttributes<HTMLVideoElement>) {
  const ownRef = useRef<HTMLVideoElement>(null);
  const element = videoRef ?? ownRef;
  const [Playback, setPlayback] = useState<ComponentType<PlaybackProps>>();
  useEffect(() => {
    void import("~/components/media/video-playback").then((module) => setPlayback(() => module.Playback));
  }, []);
  const lowest = video.renditions[0];
  return (
    <div className="relative h-full w-full">
      <video
        ref={element}
        src={lowest?.url ?? video.url}
        poster={video.posterUrl ?? undefined}
        data-rendition={lowest?.name ?? "Original"}
        controls
        preload="none"
        playsInline
        {...attributes}
      />
      {Playback ? <Playback element={element} video={video} eager={eager} /> : null}
    </div>
  );
}
