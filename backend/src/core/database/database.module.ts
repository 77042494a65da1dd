import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { dataSourceOptions } from './data-source';
import { RepositoriesModule } from './repositories/repositories.module';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config.DATABASE_URL, config.DATABASE_POOL_SIZE),
        // Postgres may come up after us (compose, CI); keep trying instead of dying at boot.
        retryAttempts: 30,
        retryDelay: 1000,
      }),
    }),
    RepositoriesModule,
  ],
})
export class DatabaseModule {}
