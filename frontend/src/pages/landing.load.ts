// How `/` asks for its islands. The server HTML is complete and styled by its CSS, which the build
// inlines into the page; everything that makes the islands interactive loads only after the first
// frame, so a slow phone paints the page before it downloads, parses and runs that code.
requestAnimationFrame(() => setTimeout(() => void import('virtual:page/landing-islands')));
