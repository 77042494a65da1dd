import { upsellIslands } from '../app/pages/upsell-islands';
import { startPage } from '../page-islands';

startPage(upsellIslands);
