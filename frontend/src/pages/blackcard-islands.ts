import { blackcardIslands } from '../app/pages/blackcard-islands';
import { pages } from '../content/pages';
import { validateTokenEarly } from '../features/blackcard/api/validate-token';
import { startPage } from '../page-islands';

// The query token's check starts now, while React hydrates the page (its access hook adopts the answer).
validateTokenEarly(new URLSearchParams(window.location.search).get('token')?.trim() || null);
startPage(blackcardIslands, pages.blackcard.title);
