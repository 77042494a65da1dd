/**
 * Videos and their self-hosted posters. The posters keep the first paint free of the video
 * host; the ids are the brand's YouTube uploads, played through youtube-nocookie.
 */
export interface VideoSource {
  youtubeId: string;
  poster: { src: string; width: number; height: number };
}

export const heroVideo: VideoSource = {
  youtubeId: 'clearHero01',
  poster: { src: '/media/hero-poster.svg', width: 1600, height: 900 },
};

export const salesLetterVideo: VideoSource = {
  youtubeId: 'clearVsl001',
  poster: { src: '/media/sales-letter-poster.svg', width: 1280, height: 720 },
};
