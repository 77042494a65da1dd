// The entry of the prerendered /blackcard: its CSS, which the build inlines into the page, and its
// islands, hydrated as soon as the document is parsed (a visitor acts on this page at once: its
// form, its access check or its links), unlike `/`, whose islands wait for the first frame.
import '../styles/base.css';
import '../components/page-heading.css';
import '../features/blackcard/blackcard.css';
import './blackcard-islands';
