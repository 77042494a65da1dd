import { Section } from '@/components/section';
import { faq } from '@/content/landing';
import { Island } from '@/lib/islands';
import { faqIsland } from './faq-accordion';

export function FaqSection() {
  return (
    <Section name="faq" heading={faq.heading} narrow>
      <Island of={faqIsland} />
    </Section>
  );
}
