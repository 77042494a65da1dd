import { accountIslands } from '../app/pages/account-islands';
import { pages } from '../content/pages';
import { startPage } from '../page-islands';

startPage(accountIslands, pages.account.title);
