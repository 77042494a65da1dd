import media from '@site/media.json';

/**
 * Videos and their self-hosted posters, from the site folder's media.json (posters in its media/
 * folder). The posters keep the first paint free of the video host; the ids are the brand's
 * YouTube uploads, played through youtube-nocookie.
 */
export interface VideoSource {
  youtubeId: string;
  poster: { src: string; width: number; height: number };
}

export const heroVideo: VideoSource = media.hero;

export const salesLetterVideo: VideoSource = media.salesLetter;
