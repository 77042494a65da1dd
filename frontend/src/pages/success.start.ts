import { islands } from 'virtual:page/success-island-list';
import { verifyPurchaseEarly } from '../features/success/api/verify-purchase';
import { readSuccessHandOff } from '../features/success/success-hand-off';
import { pageQuery } from '../lib/personal-query';
import { startPage } from '../page-islands';

// The payment's verification starts now, while React hydrates the page (its hook adopts the answer).
verifyPurchaseEarly(readSuccessHandOff(pageQuery(window.location.search)).verification);
startPage(islands);
