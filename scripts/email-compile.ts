import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EMAIL_TEMPLATES_FILE, emailTemplatesSource } from '../worker/src/messages/layout/email-layout.components';
import { runCli } from './lib/cli';

const root = resolve(__dirname, '..', '..');

/**
 * `npm run email:compile`: renders the e-mail layout's React Email components into the templates
 * the worker fills (email-templates.generated.ts). Run it after editing the components; a unit spec
 * fails while the file is out of date.
 */
runCli(() => {
  writeFileSync(join(root, EMAIL_TEMPLATES_FILE), emailTemplatesSource());
  console.log(`Wrote ${EMAIL_TEMPLATES_FILE}`);
  return Promise.resolve();
}, 'Could not compile the e-mail templates');
