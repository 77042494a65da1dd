import { Section } from '@/components/section';
import { benefits } from '@/content/landing-sections';
import { CardGrid } from './card-grid';

export function BenefitsSection() {
  return (
    <Section name="benefits" heading={benefits.heading}>
      <CardGrid cards={benefits.cards} columns={4} />
    </Section>
  );
}
