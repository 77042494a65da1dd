import { BadRequestException } from '@nestjs/common';
import { formatPrice } from '@contracts/money';
import { CURRENCY, findPlan, isAddOnOnly, OFFERS, Plan, PLANS } from '@contracts/plans';

const ALL = PLANS;
const listOf = (plans: Plan[]) => plans.map((p) => `"${p.name}"`).join(', ');
/** The plans a checkout of this kind may sell on their own: the add-on is only ever ticked onto another. */
const choices = (kind: Plan['kind']) => listOf(ALL.filter((p) => p.kind === kind && !isAddOnOnly(p)));

/**
 * The server decides what is charged: the client's plan name and amount are only checked against
 * the catalogue, never used as the price. A mismatch is a 400 that says what was expected.
 */
export function planByDisplayName(name: string, amount: number, kind: Plan['kind']): Plan {
  const plan = ALL.find((p) => p.name === name.trim());
  if (!plan) throw new BadRequestException(`Unknown plan "${name}". Choose one of: ${choices(kind)}.`);
  assertSoldAlone(plan, kind);
  assertKind(plan, kind);
  assertAmount(plan, amount);
  return plan;
}

/** The setup intent's plan: by id (the spec's client sends none: the default plan). */
export function subscriptionPlanById(planId: string | undefined): Plan {
  const plan = planId === undefined ? OFFERS.default : findPlan(planId);
  if (!plan) throw new BadRequestException(`Unknown plan "${planId}".`);
  assertSoldAlone(plan, 'subscription');
  assertKind(plan, 'subscription');
  return plan;
}

/** The add-on's own checkout is refused as an unknown plan's is: it would sell it as a membership of its own. */
function assertSoldAlone(plan: Plan, kind: Plan['kind']): void {
  if (!isAddOnOnly(plan)) return;
  throw new BadRequestException(`"${plan.name}" is only sold as an add-on to another plan. Choose one of: ${choices(kind)}.`);
}

/** confirm-subscription repeats the plan and amount: both must be the order's. */
export function assertSamePlan(orderPlan: Plan, name: string, amount: number): void {
  if (name.trim() !== orderPlan.name) {
    throw new BadRequestException(`The plan "${name}" does not match this checkout, which is for "${orderPlan.name}".`);
  }
  assertAmount(orderPlan, amount);
}

function assertKind(plan: Plan, kind: Plan['kind']): void {
  if (plan.kind === kind) return;
  throw new BadRequestException(
    plan.kind === 'subscription'
      ? `"${plan.name}" is a subscription: start it with /api/create-setup-intent.`
      : `"${plan.name}" is a one-time payment: pay it with /api/create-payment-intent.`,
  );
}

function assertAmount(plan: Plan, amount: number): void {
  if (amount !== plan.amount) {
    throw new BadRequestException(
      `The amount ${formatPrice(amount, CURRENCY)} does not match the price of "${plan.name}", which is ${formatPrice(plan.amount, CURRENCY)}.`,
    );
  }
}
