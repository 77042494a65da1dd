import { blackcardIslands } from '../app/pages/blackcard-islands';
import { startPage } from '../page-islands';

startPage(blackcardIslands);
