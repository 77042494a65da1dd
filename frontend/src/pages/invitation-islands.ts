import { invitationIslands } from '../app/pages/invitation-islands';
import { pages } from '../content/pages';
import { startPage } from '../page-islands';

startPage(invitationIslands, pages.invitation.title);
