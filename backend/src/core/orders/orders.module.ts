import { Global, Module } from '@nestjs/common';
import { OrderLifecycle } from './order-lifecycle';

/**
 * The order lifecycle (order-lifecycle.ts), for the API and the worker alike: imported with the
 * repositories it runs its statements through (DatabaseModule).
 */
@Global()
@Module({
  providers: [OrderLifecycle],
  exports: [OrderLifecycle],
})
export class OrdersModule {}
