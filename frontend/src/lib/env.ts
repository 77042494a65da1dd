/** Build-time settings of third-party integrations; an absent id means the integration is off. */
function optionalId(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

export const env = {
  ga4Id: optionalId(import.meta.env.VITE_GA4_ID),
  metaPixelId: optionalId(import.meta.env.VITE_META_PIXEL_ID),
  firstPromoterId: optionalId(import.meta.env.VITE_FIRSTPROMOTER_ID),
  /** Post-purchase hosts; content/config.ts supplies the defaults. */
  programAppUrl: optionalId(import.meta.env.VITE_PROGRAM_APP_URL),
  membersRegisterUrl: optionalId(import.meta.env.VITE_MEMBERS_REGISTER_URL),
  appDownloadUrl: optionalId(import.meta.env.VITE_APP_DOWNLOAD_URL),
} as const;
