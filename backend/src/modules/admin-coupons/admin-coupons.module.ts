import { Module } from '@nestjs/common';
import { AdminAccessModule } from '../../common/admin-access/admin-access.module';
import { AdminCouponsController } from './admin-coupons.controller';
import { AdminCouponsService } from './admin-coupons.service';
import { CancellationsController } from './cancellations.controller';

/** The admin's coupons screen: codes checkout prices orders with, the cancellation flow's save offer and what members answered there. */
@Module({
  imports: [AdminAccessModule],
  controllers: [AdminCouponsController, CancellationsController],
  providers: [AdminCouponsService],
})
export class AdminCouponsModule {}
