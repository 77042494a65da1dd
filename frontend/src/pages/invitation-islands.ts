import { invitationIslands } from '../app/pages/invitation-islands';
import { startPage } from '../page-islands';

startPage(invitationIslands);
