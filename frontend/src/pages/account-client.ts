// The entry of /account's document, whose shell (the heading and its loading line) is prerendered
// HTML. Its CSS is inlined into the page by the build, and the screen's code is imported here, so
// it arrives with the SPA's (modulepreload links in the HTML). The SPA starts as on any other route
// (src/entry-client.tsx) and replaces the shell with the live screen (lib/page-frame.ts).
import '../styles/base.css';
import '../components/page-heading.css';
import '../features/account/account.css';
import { ROUTES } from '@contracts/routes';
import { providePreloadedScreen } from '../app/routes';
import AccountRoute from '../app/routes/account.route';
// Last: it schedules the SPA's first render, which runs after this module's body.
import '../entry-client';

providePreloadedScreen(ROUTES.account, AccountRoute);
