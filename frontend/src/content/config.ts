import { env } from '@/lib/env';
import { brand } from './brand';

/**
 * External hosts the buyer is sent to after paying. Each is a run-time setting of the server (see
 * .env.example: PROGRAM_APP_URL, MEMBERS_REGISTER_URL, APP_DOWNLOAD_URL) with a default on the
 * brand's own domain, so a site without them still links somewhere real.
 */
const appHost = env.programAppUrl ?? `https://app.${new URL(brand.siteUrl).hostname.replace(/^www\./, '')}`;

export const externalLinks = {
  /** 'Access Your Program': the members' app. */
  programApp: appHost,
  /** 'Register Your Account Now': the members host's registration page. */
  membersRegister: env.membersRegisterUrl ?? `${appHost}/register`,
  /** 'Download the App'. */
  appDownload: env.appDownloadUrl ?? `${appHost}/download`,
} as const;

/** The programme's short name, sent as `source` when the hand-off names none (spec sections 2 and 9). */
export const defaultSource = brand.programName;
