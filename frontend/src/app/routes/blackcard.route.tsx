import { BlackcardPage } from '@/features/blackcard/components/blackcard-page';

export default function BlackcardRoute() {
  return <BlackcardPage />;
}
