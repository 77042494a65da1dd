import { fill } from '@contracts/site/fill';
import copy from '@site/copy/consent.json';

const { vendorsJoin, ...banner } = copy.banner;

/**
 * Copy of the analytics consent banner and of the control that reopens it, from the site folder's
 * copy/consent.json. Shown only in builds that configure an analytics vendor; the message names
 * exactly the vendors that are configured.
 */
export const consentVendorNames = copy.vendorNames;

export const consentBanner = {
  ...banner,
  message: (vendors: string[]) => fill(banner.message, { vendors: vendors.join(vendorsJoin) }),
};

export const consentSettings = copy.settings;
