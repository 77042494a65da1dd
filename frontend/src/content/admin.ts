/** Copy of the admin area: sign-in, the admin landing and the testimonial manager (spec sections 2, 5 and 8). */
export const adminLogin = {
  emailLabel: 'Email',
  passwordLabel: 'Password',
  submit: 'Sign in',
  pending: 'Signing in…',
  emailRequired: 'Please enter your email address',
  passwordRequired: 'Please enter your password',
  failedFallback: 'Sign-in failed. Please try again.',
};

export const adminShell = {
  navLabel: 'Admin',
  home: 'Admin',
  signedInAs: 'Signed in as',
  signOut: 'Sign out',
  signingOut: 'Signing out…',
  sessionLoadFailed: 'Your admin session could not be checked. Check your connection and reload the page.',
  reload: 'Reload page',
};

export const adminHome = {
  intro: 'Manage what the funnel shows and how its background work is doing.',
  links: [
    { key: 'testimonials', label: 'Testimonials', description: 'Add, edit, feature and order the testimonials on the landing page.' },
    { key: 'queues', label: 'Queues', description: 'Background jobs: counts, failures, retries.' },
  ],
};

export const testimonialManager = {
  form: {
    heading: 'Add New Testimonial',
    editHeading: 'Edit Testimonial',
    nameLabel: 'Name',
    titleLabel: 'Title/Role',
    contentLabel: 'Testimonial Content',
    videoUrlLabel: 'Video URL (Optional)',
    imageUrlLabel: 'Image URL (Optional)',
    ratingLabel: 'Rating',
    ratingOption: (stars: number) => `${stars} star${stars === 1 ? '' : 's'}`,
    featuredLabel: 'Featured (show on landing page)',
    submit: 'Add Testimonial',
    submitting: 'Adding…',
    save: 'Save changes',
    saving: 'Saving…',
    cancel: 'Cancel',
  },
  validation: {
    nameRequired: 'Name is required',
    titleRequired: 'Title is required',
    contentRequired: 'Content is required',
    urlInvalid: 'Enter a full http(s) URL, such as https://example.com/video',
  },
  list: {
    heading: 'Existing Testimonials',
    empty: 'No testimonials yet',
    loading: 'Loading testimonials…',
    loadFailed: 'The testimonials could not be loaded.',
    retry: 'Try again',
    featuredMarker: 'Featured',
    videoMarker: 'Has video',
    ratingText: (stars: number) => `${stars} of 5 stars`,
    edit: 'Edit',
    feature: 'Feature',
    unfeature: 'Unfeature',
    moveUp: 'Move up',
    moveDown: 'Move down',
    delete: 'Delete',
    confirmDelete: (name: string) => `Delete the testimonial from ${name}? This cannot be undone.`,
    confirmDeleteButton: 'Yes, delete',
    deleting: 'Deleting…',
  },
  toasts: {
    created: 'Testimonial created successfully',
    createFailed: 'Error creating testimonial',
    updated: 'Testimonial updated',
    updateFailed: 'Error updating testimonial',
    deleted: 'Testimonial deleted',
    deleteFailed: 'Error deleting testimonial',
    deleteFailedFallback: 'The testimonial was not deleted. Please try again.',
    failedFallback: 'Please try again.',
    sessionEnded: 'Your session has ended',
    sessionEndedDescription: 'Please sign in again; nothing was saved.',
  },
};
