import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PlanId } from '@contracts/plans';
import type { CouponKind } from '@contracts/coupons';
import type { CouponTerms } from '../../coupons/coupon-pricing';
import type { SqlExecutor, TableColumns } from '../personal-data';

export const COUPON_TABLES: readonly TableColumns[] = [
  {
    table: 'coupons',
    personal: [],
    // Codes and terms the admin made for every buyer alike.
    notPersonal: ['code', 'kind', 'plan_ids'],
  },
];

/** A `coupons` row: the terms of one code and how many orders redeemed it. */
export interface CouponRow extends CouponTerms {
  id: string;
  created_at: Date;
}

export interface NewCoupon {
  code: string;
  kind: CouponKind;
  percentOff: number | null;
  amountOffCents: number | null;
  planIds: PlanId[];
  durationMonths: number | null;
  expiresAt: Date | null;
  maxRedemptions: number | null;
}

const COLUMNS = `id, code, kind, percent_off, amount_off_cents, plan_ids, duration_months, expires_at, max_redemptions, redeemed, active,
  created_at`;

/** Coupons and their redemption count. */
@Injectable()
export class CouponRepository {
  readonly tables = COUPON_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /** The new coupon; null when the code exists already. */
  async create(coupon: NewCoupon, sql: SqlExecutor = this.dataSource): Promise<CouponRow | null> {
    const rows: CouponRow[] = await sql.query(
      `INSERT INTO coupons (code, kind, percent_off, amount_off_cents, plan_ids, duration_months, expires_at, max_redemptions)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (code) DO NOTHING RETURNING ${COLUMNS}`,
      [
        coupon.code,
        coupon.kind,
        coupon.percentOff,
        coupon.amountOffCents,
        coupon.planIds,
        coupon.durationMonths,
        coupon.expiresAt,
        coupon.maxRedemptions,
      ],
    );
    return rows[0] ?? null;
  }

  async findByCode(code: string): Promise<CouponRow | null> {
    const rows: CouponRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM coupons WHERE code = $1`, [code]);
    return rows[0] ?? null;
  }

  async findById(id: string): Promise<CouponRow | null> {
    const rows: CouponRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM coupons WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Newest first. */
  list(): Promise<CouponRow[]> {
    return this.dataSource.query(`SELECT ${COLUMNS} FROM coupons ORDER BY created_at DESC, code`);
  }

  /** The coupon after deactivating it; null when there is none with this id. */
  async deactivate(id: string, sql: SqlExecutor = this.dataSource): Promise<CouponRow | null> {
    const [rows]: [CouponRow[], number] = await sql.query(`UPDATE coupons SET active = false WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
    return rows[0] ?? null;
  }

  /**
   * Counts one redemption if the coupon may still be redeemed (active, not expired, under its
   * cap), in one conditional statement: concurrent checkouts never redeem more than the cap.
   */
  async redeem(sql: SqlExecutor, id: string): Promise<boolean> {
    const [rows]: [unknown[], number] = await sql.query(
      `UPDATE coupons SET redeemed = redeemed + 1
        WHERE id = $1 AND active AND (expires_at IS NULL OR expires_at > now())
          AND (max_redemptions IS NULL OR redeemed < max_redemptions)
       RETURNING id`,
      [id],
    );
    return rows.length === 1;
  }
}
