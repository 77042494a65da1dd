import { fill } from '@contracts/site/fill';
import copy from '@site/copy/consent.json';

/**
 * Copy of the analytics consent banner and of the control that reopens it, from the site folder's
 * copy/consent.json. Shown only in builds that configure an analytics vendor; the message names
 * exactly the vendors that are configured.
 */
export const consentVendorNames = copy.vendorNames;

export const consentBanner = {
  ...copy.banner,
  message: (vendors: string[]) => fill(copy.banner.message, { vendors: vendors.join(copy.banner.vendorsJoin) }),
};

export const consentSettings = copy.settings;
