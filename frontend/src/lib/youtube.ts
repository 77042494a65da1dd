/** Embeds use the privacy-enhanced host, the only video origin the Content Security Policy allows in frames. */
export function youtubeEmbedUrl(videoId: string, params: Record<string, string>): string {
  const query = new URLSearchParams({ rel: '0', modestbranding: '1', playsinline: '1', ...params });
  return `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}?${query.toString()}`;
}
