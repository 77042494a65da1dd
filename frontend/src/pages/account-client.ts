// The entry of /account's document, whose shell (the heading and its loading line) is prerendered
// HTML. Its CSS is inlined into the page by the build, and the screen's code is preloaded with the
// SPA's (static imports: modulepreload links in the HTML).
import '../styles/base.css';
import '../components/page-heading.css';
import '../features/account/account.css';
import '../app/routes/account.route';
// The SPA as on any other route; it replaces the shell with the live screen (lib/page-frame.ts).
import '../entry-client';
