// The entry of /success's document, whose frame ('Verifying Payment...' with its spinner) is
// prerendered HTML. Its CSS is inlined into the page by the build, and the screen's code is
// preloaded with the SPA's (static imports: modulepreload links in the HTML).
import '../styles/base.css';
import '../components/page-heading.css';
import '../features/success/success.css';
import '../app/routes/success.route';
// The SPA as on any other route: it replaces the frame with the live screen (lib/page-frame.ts).
import '../entry-client';
