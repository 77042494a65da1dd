import { blackcardUpsellIslands } from '../app/pages/blackcard-upsell-islands';
import { pages } from '../content/pages';
import { startPage } from '../page-islands';

startPage(blackcardUpsellIslands, pages.blackcardUpsell.title);
