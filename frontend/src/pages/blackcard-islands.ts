import { blackcardIslands } from '../app/pages/blackcard-islands';
import { pages } from '../content/pages';
import { startPage } from '../page-islands';

startPage(blackcardIslands, pages.blackcard.title);
