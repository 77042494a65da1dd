/** A GROUPING SETS row of the funnel report: `g_*` is 1 where that column is rolled up (the total), 0 where it groups. */
export interface GroupedRow {
  g_referral: number;
  g_plan: number;
  referral: string | null;
  plan_id: string | null;
}
