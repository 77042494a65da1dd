import { Module } from '@nestjs/common';
import { AppConfig } from '@core/config/app-config';
import { BuiltPages } from '../../common/built-pages';
import { BeaconController } from './beacon.controller';
import { BeaconService } from './beacon.service';

/** POST /api/beacon: the SPA's anonymous page views and checkout starts, read by the funnel dashboard. */
@Module({
  controllers: [BeaconController],
  providers: [
    BeaconService,
    // The pages of the build the API serves (app.factory.ts hands the same list to the SPA fallback).
    { provide: BuiltPages, inject: [AppConfig], useFactory: (config: AppConfig) => BuiltPages.read(config.STATIC_DIR) },
  ],
})
export class BeaconModule {}
