import { checkoutIslands } from '../app/pages/checkout-islands';
import { startPage } from '../page-islands';

startPage(checkoutIslands);
