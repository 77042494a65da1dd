import { useEffect, useState } from 'react';
import { hero } from '@/content/landing';
import { heroVideo } from '@/content/media';
import { afterPageSettles } from '@/lib/idle';
import { defineIsland } from '@/lib/islands';
import { prefersReducedData, prefersReducedMotion } from '@/lib/user-preferences';
import { youtubeEmbedUrl } from '@/lib/youtube';

/**
 * Long enough after load that the player's scripts never compete with the first paint, the
 * hydration or the visitor's first interactions.
 */
const AUTOPLAY_DELAY_MS = 3000;

type Playback = 'poster' | 'playing' | 'paused';

/**
 * The hero's background video behind a self-hosted poster. The muted loop starts on its own only
 * after the page has settled, never for visitors who prefer reduced motion or data, and can be
 * paused (WCAG 2.2.2); pausing removes the player again.
 */
export function HeroBackdrop() {
  const [playback, setPlayback] = useState<Playback>('poster');

  useEffect(() => {
    if (prefersReducedMotion() || prefersReducedData()) return;
    return afterPageSettles(() => setPlayback((current) => (current === 'poster' ? 'playing' : current)), AUTOPLAY_DELAY_MS);
  }, []);

  const playing = playback === 'playing';
  return (
    <>
      <div className="hero__backdrop" aria-hidden="true">
        <img src={heroVideo.poster.src} width={heroVideo.poster.width} height={heroVideo.poster.height} alt="" decoding="async" />
        {playing ? (
          <iframe
            src={youtubeEmbedUrl(heroVideo.youtubeId, {
              autoplay: '1',
              mute: '1',
              loop: '1',
              playlist: heroVideo.youtubeId,
              controls: '0',
              disablekb: '1',
              iv_load_policy: '3',
            })}
            title={hero.videoTitle}
            tabIndex={-1}
            allow="autoplay; encrypted-media"
            referrerPolicy="strict-origin-when-cross-origin"
          />
        ) : null}
      </div>
      <button type="button" className="hero__video-toggle" onClick={() => setPlayback(playing ? 'paused' : 'playing')}>
        {playing ? hero.pauseVideo : hero.playVideo}
      </button>
    </>
  );
}

export const heroVideoIsland = defineIsland('hero-video', () => <HeroBackdrop />);
