import { useNavigate } from 'react-router-dom';
import { PageNavigation } from '@/lib/page-navigation';
import { LandingPage } from '../landing/landing-page';

/** `/` inside the SPA (a visitor who came back to it): the islands render as ordinary components and move on with the router. */
export default function LandingRoute() {
  const navigate = useNavigate();
  return (
    <PageNavigation value={(path) => void navigate(path)}>
      <LandingPage />
    </PageNavigation>
  );
}
