import { Global, Module } from '@nestjs/common';
import { WindowStore } from './fixed-window-counter';
import { SharedWindows } from './shared-windows';

/** One Redis-backed window store for every limit in the API: the route limits and the limiters. */
@Global()
@Module({
  providers: [SharedWindows, { provide: WindowStore, useExisting: SharedWindows }],
  exports: [SharedWindows, WindowStore],
})
export class RateLimitModule {}
