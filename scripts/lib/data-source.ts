import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@core/database/data-source';

/**
 * A one-connection DataSource for a command-line step, closed when `work` settles. TypeORM's own
 * logger, silent: the command reports failures in its own words.
 */
export async function withDataSource<T>(url: string, work: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = new DataSource({ ...dataSourceOptions(url, 1), logger: undefined, logging: false });
  await dataSource.initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
