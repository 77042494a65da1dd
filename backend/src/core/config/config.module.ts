import { Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './app-config';
import { CONFIG_SECTIONS } from './config-sections';

/**
 * Provides the validated AppConfig and its sections (DatabaseConfig, MailConfig, …), each read
 * from that AppConfig, so a module takes only its section; both the API and the worker import it.
 */
@Global()
@Module({
  providers: [
    { provide: AppConfig, useFactory: () => loadConfig() },
    ...CONFIG_SECTIONS.map((Section) => ({ provide: Section, inject: [AppConfig], useFactory: (config: AppConfig) => Section.of(config) })),
  ],
  exports: [AppConfig, ...CONFIG_SECTIONS],
})
export class ConfigModule {}
