import { writeEmailPreviews } from '../worker/src/messages/email-preview';
import { sampleEmails } from '../worker/src/messages/email-samples';
import { Lifecycle } from './lib/lifecycle';
import { step } from './lib/log';

/**
 * `npm run email:preview`: every e-mail the worker sends, on sample data in the site folder's
 * words and colours (SITE_DIR picks another), written to a temp folder that is removed when the
 * command stops (Ctrl-C). Open the printed index.html in a browser.
 */
const life = new Lifecycle({ quiet: true });
life.run(() => {
  const index = writeEmailPreviews(life.ownTempDir('email-preview'), sampleEmails());
  step(`E-mail preview: ${index}`);
  step('Press Ctrl-C to stop; the folder is removed then.');
  // Nothing else is pending: without a timer the process would end at once, skipping the cleanup.
  setInterval(() => undefined, 60 * 60 * 1000);
  return Promise.resolve('stay');
});
