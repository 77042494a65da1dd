/**
 * A request a prerendered page's entry starts before React arrives (its answer is on the way while
 * the code loads), which the page's hook then adopts, once, for the same key; a later mount or
 * another key asks again. This module imports nothing of React, so the entry does not wait for it.
 */
export class EarlyRequest<T> {
  private early: { key: string; answer: Promise<T> } | null = null;

  start(key: string, answer: Promise<T>): void {
    answer.catch(() => undefined);
    this.early = { key, answer };
  }

  /** The early answer for `key`, at most once; null when none was started for it. */
  take(key: string): Promise<T> | null {
    const answer = this.early?.key === key ? this.early.answer : null;
    this.early = null;
    return answer;
  }
}
