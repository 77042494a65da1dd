import { Global, Module } from '@nestjs/common';
import { LoadShedding } from './load-shedding.service';

/** Load shedding for the whole API (its hooks, its pool admission, its counter). */
@Global()
@Module({ providers: [LoadShedding], exports: [LoadShedding] })
export class LoadSheddingModule {}
