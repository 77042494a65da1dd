/**
 * Copy of the analytics consent banner and of the control that reopens it. Shown only in builds that
 * configure an analytics vendor; the message names exactly the vendors that are configured.
 */
export const consentVendorNames = {
  ga4: 'Google Analytics',
  metaPixel: 'the Meta pixel',
};

export const consentBanner = {
  label: 'Cookie consent',
  message: (vendors: string[]) =>
    `May we use cookies from ${vendors.join(' and ')} to measure visits and improve our ads? Nothing from them loads unless you accept.`,
  currentChoice: {
    granted: 'You currently accept these cookies.',
    denied: 'You currently decline these cookies.',
  },
  accept: 'Accept',
  decline: 'Decline',
};

export const consentSettings = {
  open: 'Cookie settings',
};
