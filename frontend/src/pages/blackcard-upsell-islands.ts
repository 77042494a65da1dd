import { blackcardUpsellIslands } from '../app/pages/blackcard-upsell-islands';
import { startPage } from '../page-islands';

startPage(blackcardUpsellIslands);
