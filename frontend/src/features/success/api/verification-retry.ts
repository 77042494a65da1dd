/** Spec sections 7 and 9: verification is the one read that retries, 3 times, 1 s apart. */
export const VERIFICATION_RETRIES = 3;
export const VERIFICATION_RETRY_DELAY_MS = 1000;
