import { upsellIslands } from '../app/pages/upsell-islands';
import { pages } from '../content/pages';
import { startPage } from '../page-islands';

startPage(upsellIslands, pages.upsell.title);
