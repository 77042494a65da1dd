import { Global, Module } from '@nestjs/common';
import { OrderLifecycle } from './order-lifecycle';

/**
 * The order lifecycle (order-lifecycle.ts), for the API and the worker alike: each imports it
 * beside DatabaseModule, whose repositories it runs its statements through (the database module
 * never imports the lifecycle built on it).
 */
@Global()
@Module({
  providers: [OrderLifecycle],
  exports: [OrderLifecycle],
})
export class OrdersModule {}
