import { INVITATION_NAME_MIN_LENGTH } from '@contracts/invitations';
import { brand } from './brand';

/** All copy of /invitation (spec sections 2, 5 and 8). */
export const invitation = {
  eyebrow: 'PRIVATE INVITATION',
  intro: `${brand.programName} is growing by invitation. Someone who has walked this path believes you are ready for it too.`,
  promise: 'Claim your place below. It takes less than a minute, and your private access opens the moment you do.',
  overlay: {
    title: 'Are you one of us?',
    body: 'Only those who are ready to get unstuck make it this far.',
  },
  form: {
    heading: 'Your Invitation Awaits.',
    intro: 'Tell us who you are to unlock your private access.',
    nameLabel: 'Full Name',
    emailLabel: 'Email Address',
    phoneLabel: 'Phone Number (optional)',
    invitedByLabel: 'Invited By (optional)',
    submit: 'Unlock My Access',
    pending: 'Sending...',
    nameMinLength: INVITATION_NAME_MIN_LENGTH,
    invalidName: 'Please enter your full name',
    invalidEmail: 'Please enter a valid email address',
    privacy: 'Your details are used only to send your private access link.',
  },
  confirmation: {
    heading: 'Welcome to the Movement',
    checkEmail: 'Check your email for your private access link.',
    body: 'Your invitation contains everything you need to begin.',
  },
  toasts: {
    successTitle: 'Success!',
    successBody: 'Check your email for your private access link.',
    errorTitle: 'Error',
    errorFallback: 'Failed to submit invitation',
    networkFallback: 'Something went wrong. Please try again.',
  },
};
