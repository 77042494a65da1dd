import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  validateSync,
} from 'class-validator';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * Every environment variable either process reads. `.env.example` documents the same list;
 * boot stops with the name of the first bad variable, never with a stack trace from deep inside.
 */
export class AppConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  @Transform(toInt) @IsInt() @Min(1) @Max(65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /** The site's own origin: CORS allows only this origin. */
  @IsUrl({ require_tld: false, require_protocol: true })
  PUBLIC_URL = 'http://localhost:3000';

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// connection URL' })
  DATABASE_URL: string;

  @Transform(toInt) @IsInt() @Min(2) @Max(200)
  DATABASE_POOL_SIZE = 20;

  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// connection URL' })
  REDIS_URL: string;

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @Transform(toInt) @IsInt() @Min(1024) @Max(10_485_760)
  BODY_LIMIT_BYTES = 16_384;

  @Transform(toBool) @IsBoolean()
  TRUST_PROXY = false;

  @Transform(toInt) @IsInt() @Min(1000)
  RATE_LIMIT_WINDOW_MS = 60_000;

  /** Requests one client may make to a public write endpoint per window. */
  @Transform(toInt) @IsInt() @Min(1)
  RATE_LIMIT_WRITES = 30;

  @IsString()
  STATIC_DIR = 'frontend/dist';

  @IsUrl({ require_tld: false, require_protocol: true })
  AFFILIATE_API_URL = 'https://firstpromoter.com/api/v1';

  /** Empty means the affiliate service is not configured: jobs record that instead of sending. */
  @Transform(emptyToUndefined) @IsOptional() @IsString()
  AFFILIATE_API_KEY?: string;

  @Transform(toInt) @IsInt() @Min(100)
  AFFILIATE_TIMEOUT_MS = 10_000;

  @Transform(toInt) @IsInt() @Min(10)
  OUTBOX_POLL_MS = 250;

  @Transform(toInt) @IsInt() @Min(1) @Max(1000)
  OUTBOX_BATCH_SIZE = 200;

  /** A dispatched job that has not reported done after this long is handed to BullMQ again. */
  @Transform(toInt) @IsInt() @Min(1000)
  OUTBOX_REDISPATCH_AFTER_MS = 120_000;

  @Transform(toInt) @IsInt() @Min(1) @Max(100)
  JOB_ATTEMPTS = 10;

  @Transform(toInt) @IsInt() @Min(10)
  JOB_BACKOFF_MS = 1000;

  @Transform(toInt) @IsInt() @Min(1) @Max(200)
  WORKER_CONCURRENCY = 20;

  /**
   * OS scheduling niceness of the worker process (0-19). Background jobs can wait a few seconds;
   * buyers cannot: where API and worker share cores, the worker yields CPU under contention.
   */
  @Transform(toInt) @IsInt() @Min(0) @Max(19)
  WORKER_NICENESS = 10;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const known = Object.keys(new AppConfig()).concat(['DATABASE_URL', 'REDIS_URL', 'AFFILIATE_API_KEY']);
  const raw: Record<string, string> = {};
  for (const key of known) {
    const value = env[key];
    if (value !== undefined) raw[key] = value;
  }
  const config = plainToInstance(AppConfig, raw, { exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false });
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const reason = Object.values(e.constraints ?? {})[0] ?? 'is invalid';
      const shown = e.value === undefined ? 'missing' : JSON.stringify(String(e.value));
      return `  ${e.property} (${shown}): ${reason.replace(e.property, '').trim()}`;
    });
    throw new ConfigError(`Invalid configuration, fix these environment variables:\n${lines.join('\n')}`);
  }
  return config;
}
