import copy from '@site/copy/landing-sections.json';

/**
 * The copy of the landing page's static sections (spec section 2, "/"), in page order, from the
 * site folder's copy/landing-sections.json: the server's HTML and the SPA's landing route show it,
 * no island does (their copy is in copy/landing.json).
 */
export interface Card {
  title: string;
  description: string;
}

export interface MethodStep extends Card {
  letter: string;
}

/** A value of 0 reads as the value stack's `priceless` label. */
export interface OfferItem extends Card {
  value: number;
}

export const { movement, benefits, founder, whyOnly, guarantee, finalCall } = copy;

export const methodSection = {
  ...copy.methodSection,
  steps: copy.methodSection.steps.map((step): MethodStep => ({ ...step, letter: step.title.charAt(0) })),
};

export const valueStack: typeof copy.valueStack & { items: OfferItem[] } = copy.valueStack;
