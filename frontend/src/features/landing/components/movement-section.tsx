import { Section } from '@/components/section';
import { movement } from '@/content/landing-sections';
import { CardGrid } from './card-grid';

export function MovementSection() {
  return (
    <Section name="movement" heading={movement.heading} intro={movement.intro}>
      <CardGrid cards={movement.cards} columns={3} />
    </Section>
  );
}
