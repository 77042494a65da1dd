import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AdminCoupon } from '@contracts/coupons';
import { AuditRepository } from '@core/database/repositories/audit.repository';
import { PaymentsConfig } from '@core/config/config-sections';
import { CouponRepository, type CountedCoupon } from '@core/database/repositories/coupon.repository';
import type { CreateCouponDto } from './dto/create-coupon.dto';

export interface AdminActor {
  adminId: string;
  clientIp: string;
}

const toAdminCoupon = (row: CountedCoupon): AdminCoupon => ({
  id: row.id,
  code: row.code,
  kind: row.kind,
  percentOff: row.percent_off,
  amountOffCents: row.amount_off_cents,
  planIds: row.plan_ids,
  durationMonths: row.duration_months,
  expiresAt: row.expires_at ? row.expires_at.toISOString() : null,
  maxRedemptions: row.max_redemptions,
  redeemed: row.redeemed,
  active: row.active,
  saveOffer: row.save_offer,
  createdAt: row.created_at.toISOString(),
});

/** The admin's coupons: create, list, deactivate; each write with its audit entry in one transaction. */
@Injectable()
export class AdminCouponsService {
  constructor(
    private readonly coupons: CouponRepository,
    private readonly audit: AuditRepository,
    private readonly dataSource: DataSource,
    private readonly config: PaymentsConfig,
  ) {}

  async list(): Promise<AdminCoupon[]> {
    return (await this.coupons.list(this.config.COUPON_HOLD_MINUTES)).map(toAdminCoupon);
  }

  create(dto: CreateCouponDto, admin: AdminActor): Promise<AdminCoupon> {
    return this.dataSource.transaction(async (manager) => {
      const row = await this.coupons.create(
        {
          code: dto.code,
          kind: dto.kind,
          percentOff: dto.kind === 'percent' ? (dto.percentOff ?? null) : null,
          amountOffCents: dto.kind === 'fixed' ? (dto.amountOffCents ?? null) : null,
          planIds: [...new Set(dto.planIds)],
          durationMonths: dto.durationMonths ?? null,
          expiresAt: dto.expiresAt ? new Date(dto.expiresAt) : null,
          maxRedemptions: dto.maxRedemptions ?? null,
          saveOffer: dto.saveOffer ?? false,
        },
        manager,
      );
      if (!row) throw new ConflictException(`A coupon with the code ${dto.code} exists already.`);
      await this.audit.record(
        { adminId: admin.adminId, action: 'coupon.create', target: `coupon:${row.code}`, clientIp: admin.clientIp },
        manager,
      );
      return toAdminCoupon(row);
    });
  }

  deactivate(id: string, admin: AdminActor): Promise<AdminCoupon> {
    return this.dataSource.transaction(async (manager) => {
      const row = await this.coupons.deactivate(id, this.config.COUPON_HOLD_MINUTES, manager);
      if (!row) throw new NotFoundException('There is no coupon with this id.');
      await this.audit.record(
        { adminId: admin.adminId, action: 'coupon.deactivate', target: `coupon:${row.code}`, clientIp: admin.clientIp },
        manager,
      );
      return toAdminCoupon(row);
    });
  }
}
