import { SANDBOX_CLOCK_MAX_DAYS } from '@contracts/payments';

/** Copy of the admin's sandbox clock screen (/admin/sandbox-clock). */
export const adminSandboxClock = {
  intro:
    "Moves the payment sandbox's time forward, as a Stripe test clock does. Whatever falls due in those days happens now: " +
    'renewals and instalments are charged, failed charges retried, subscriptions ended, and their e-mails go out to the test buyers.',
  notSandbox: 'Payments here run on Stripe, not on the sandbox: there is no sandbox clock. Use test clocks in the Stripe dashboard.',
  form: {
    heading: 'Move the clock',
    days: 'Days to move forward',
    daysHint: `A whole number from 1 to ${SANDBOX_CLOCK_MAX_DAYS}.`,
    invalidDays: `Enter a whole number of days from 1 to ${SANDBOX_CLOCK_MAX_DAYS}.`,
    submit: 'Move the clock',
    moving: 'Moving the clock…',
    failed: 'The clock could not be moved. Try again.',
  },
  moved: (days: number) => `Moved ${days} ${days === 1 ? 'day' : 'days'} forward`,
  now: (when: string) => `The sandbox's time is now ${when}.`,
};
