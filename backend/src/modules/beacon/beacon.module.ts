import { Module } from '@nestjs/common';
import { ServerConfig } from '@core/config/config-sections';
import { BuiltPages } from '../../common/built-pages';
import { BeaconController } from './beacon.controller';
import { BeaconService } from './beacon.service';

/** POST /api/beacon: the SPA's anonymous page views and checkout starts, read by the funnel dashboard. */
@Module({
  controllers: [BeaconController],
  providers: [
    BeaconService,
    // The pages of the build the API serves (app.factory.ts hands the same list to the SPA fallback).
    { provide: BuiltPages, inject: [ServerConfig], useFactory: (config: ServerConfig) => BuiltPages.read(config.STATIC_DIR) },
  ],
})
export class BeaconModule {}
