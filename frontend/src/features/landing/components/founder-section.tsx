import { Section } from '@/components/section';
import { founder } from '@/content/landing-sections';

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase())
    .slice(0, 2)
    .join('');
}

export function FounderSection() {
  return (
    <Section name="founder" heading={founder.heading} variant="alt" narrow>
      <article className="card founder">
        <div className="founder__identity">
          <span className="founder__initials" aria-hidden="true">
            {initials(founder.name)}
          </span>
          <div>
            <h3>{founder.name}</h3>
            <p className="founder__role">{founder.role}</p>
          </div>
        </div>
        {founder.story.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </article>
    </Section>
  );
}
