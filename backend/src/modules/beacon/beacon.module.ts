import { Module } from '@nestjs/common';
import { BeaconController } from './beacon.controller';
import { BeaconService } from './beacon.service';

/** POST /api/beacon: the SPA's anonymous page views and checkout starts, read by the funnel dashboard. */
@Module({
  controllers: [BeaconController],
  providers: [BeaconService],
})
export class BeaconModule {}
