import { useEffect, useRef, useState } from 'react';
import type { VideoSource } from '@/content/media';
import { youtubeEmbedUrl } from '@/lib/youtube';

interface VideoFacadeProps {
  video: VideoSource;
  title: string;
  playLabel: string;
}

/**
 * A poster with a play button that becomes the real player on click: the video host's scripts
 * (about a megabyte) load only for visitors who actually watch.
 */
export function VideoFacade({ video, title, playLabel }: VideoFacadeProps) {
  const [playing, setPlaying] = useState(false);
  const player = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    if (playing) player.current?.focus();
  }, [playing]);

  return (
    <div className="video-frame">
      {playing ? (
        <iframe
          ref={player}
          src={youtubeEmbedUrl(video.youtubeId, { autoplay: '1' })}
          title={title}
          allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
          referrerPolicy="strict-origin-when-cross-origin"
          allowFullScreen
        />
      ) : (
        <button type="button" className="video-facade" aria-label={playLabel} onClick={() => setPlaying(true)}>
          <img src={video.poster.src} width={video.poster.width} height={video.poster.height} alt="" loading="lazy" decoding="async" />
          <span className="video-facade__play" aria-hidden="true">
            <svg viewBox="0 0 24 24" width="32" height="32" focusable="false">
              <path d="M8 5v14l11-7z" fill="currentColor" />
            </svg>
          </span>
        </button>
      )}
    </div>
  );
}
