import { INVITATION_NAME_MIN_LENGTH } from '@contracts/invitations';
import copy from '@site/copy/invitation.json';

/** All copy of /invitation (spec sections 2, 5 and 8), from the site folder's copy/invitation.json. */
export const invitation = {
  ...copy,
  form: { ...copy.form, nameMinLength: INVITATION_NAME_MIN_LENGTH },
};
