import { accountIslands } from '../app/pages/account-islands';
import { startPage } from '../page-islands';

startPage(accountIslands);
