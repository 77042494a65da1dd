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

/** A `coupons` row: the terms of one code. */
export interface CouponRow extends Omit<CouponTerms, 'redeemed'> {
  id: string;
  /** The cancellation flow's save offer: taken off a member's next renewal once, instead of cancelling. */
  save_offer: boolean;
  created_at: Date;
}

/**
 * A coupon with `redeemed`: its redemptions that count against its cap now, those of orders paid
 * and those held by orders opened less than the hold ago and not paid (yet).
 */
export interface CountedCoupon extends CouponRow, CouponTerms {}

export interface NewCoupon {
  code: string;
  kind: CouponKind;
  percentOff: number | null;
  amountOffCents: number | null;
  planIds: PlanId[];
  durationMonths: number | null;
  expiresAt: Date | null;
  maxRedemptions: number | null;
  saveOffer: boolean;
}

/** Not `redeemed`, the previous release's counter (see redeem): a coupon's redemptions are counted from its orders. */
const COLUMNS = `id, code, kind, percent_off, amount_off_cents, plan_ids, duration_months, expires_at, max_redemptions, active, save_offer,
  created_at`;

/**
 * The redemptions counting against coupon `c`'s cap, with the hold in minutes as parameter `$n`.
 * A paid order counts for good, also one paid after its hold lapsed (its buyer was charged the
 * discounted price): such late payments may take a coupon past its cap, by at most their number.
 */
const redeemedOf = (n: number): string => `(SELECT count(*)::int FROM orders o
   WHERE o.coupon_id = c.id AND (o.paid_at IS NOT NULL OR o.created_at > now() - make_interval(mins => $${n}::int)))`;

/** Coupons, and the redemptions that count against their caps (counted from the orders that use them). */
@Injectable()
export class CouponRepository {
  readonly tables = COUPON_TABLES;

  constructor(private readonly dataSource: DataSource) {}

  /** The new coupon; null when the code exists already. */
  async create(coupon: NewCoupon, sql: SqlExecutor = this.dataSource): Promise<CountedCoupon | null> {
    const rows: CountedCoupon[] = await sql.query(
      `INSERT INTO coupons (code, kind, percent_off, amount_off_cents, plan_ids, duration_months, expires_at, max_redemptions, save_offer)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (code) DO NOTHING RETURNING ${COLUMNS}, 0 AS redeemed`,
      [
        coupon.code,
        coupon.kind,
        coupon.percentOff,
        coupon.amountOffCents,
        coupon.planIds,
        coupon.durationMonths,
        coupon.expiresAt,
        coupon.maxRedemptions,
        coupon.saveOffer,
      ],
    );
    return rows[0] ?? null;
  }

  /** The save offer a member of this plan is made: the newest active, unexpired save-offer coupon for the plan; null: none. */
  async findSaveOffer(planId: PlanId): Promise<CouponRow | null> {
    const rows: CouponRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM coupons
        WHERE save_offer AND active AND (expires_at IS NULL OR expires_at > now()) AND $1 = ANY(plan_ids)
        ORDER BY created_at DESC, id LIMIT 1`,
      [planId],
    );
    return rows[0] ?? null;
  }

  /** The coupon with this code and its redemptions, unpaid ones counting for `holdMinutes`. */
  async findByCode(code: string, holdMinutes: number): Promise<CountedCoupon | null> {
    const rows: CountedCoupon[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, ${redeemedOf(2)} AS redeemed FROM coupons c WHERE code = $1`,
      [code, holdMinutes],
    );
    return rows[0] ?? null;
  }

  async findById(id: string): Promise<CouponRow | null> {
    const rows: CouponRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM coupons WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Newest first, each with its redemptions, unpaid ones counting for `holdMinutes`. */
  list(holdMinutes: number): Promise<CountedCoupon[]> {
    return this.dataSource.query(`SELECT ${COLUMNS}, ${redeemedOf(1)} AS redeemed FROM coupons c ORDER BY created_at DESC, code`, [
      holdMinutes,
    ]);
  }

  /** The coupon after deactivating it; null when there is none with this id. */
  async deactivate(id: string, holdMinutes: number, sql: SqlExecutor = this.dataSource): Promise<CountedCoupon | null> {
    const [rows]: [CountedCoupon[], number] = await sql.query(
      `UPDATE coupons c SET active = false WHERE id = $1 RETURNING ${COLUMNS}, ${redeemedOf(2)} AS redeemed`,
      [id, holdMinutes],
    );
    return rows[0] ?? null;
  }

  /**
   * Whether the coupon may be redeemed by one more order (active, not expired, under its cap),
   * which the caller then inserts in the same transaction. The first statement takes the coupon's
   * row lock, so checkouts redeeming it take turns until they commit; the count is a statement of
   * its own, run once the lock is held: under READ COMMITTED it then sees the orders of every
   * checkout before it (a count inside the locking statement would read the snapshot taken before
   * the wait), so concurrent checkouts never pass the cap. That statement also moves
   * `coupons.redeemed`, the previous release's counter (never released, kept at most the cap), so
   * during a rolling upgrade or after a rollback that release finds it as it kept it; nothing
   * here reads it.
   */
  async redeem(sql: SqlExecutor, id: string, holdMinutes: number): Promise<boolean> {
    const [locked]: [Array<Pick<CouponRow, 'max_redemptions'>>, number] = await sql.query(
      `UPDATE coupons SET redeemed = LEAST(redeemed + 1, COALESCE(max_redemptions, redeemed + 1))
        WHERE id = $1 AND active AND (expires_at IS NULL OR expires_at > now())
       RETURNING max_redemptions`,
      [id],
    );
    if (locked.length === 0) return false;
    const max = locked[0].max_redemptions;
    if (max === null) return true;
    const [{ redeemed }]: Array<{ redeemed: number }> = await sql.query(
      `SELECT ${redeemedOf(2)} AS redeemed FROM coupons c WHERE c.id = $1`,
      [id, holdMinutes],
    );
    return redeemed < max;
  }
}
