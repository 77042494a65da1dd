import { VideoFacade } from '@/components/video-facade';
import { salesLetter } from '@/content/landing';
import { salesLetterVideo } from '@/content/media';
import { defineIsland } from '@/lib/islands';

/** The sales letter's video facade, an island inside the otherwise static section. */
export const salesLetterVideoIsland = defineIsland('sales-letter-video', () => (
  <VideoFacade video={salesLetterVideo} title={salesLetter.heading} playLabel={salesLetter.playLabel} />
));
