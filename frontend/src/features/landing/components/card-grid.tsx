import type { Card } from '@/content/landing-sections';

/** The plain title-and-text cards of the "Join the Movement" and benefits sections. */
export function CardGrid({ cards, columns }: { cards: readonly Card[]; columns: 3 | 4 }) {
  return (
    <ul className={`card-grid card-grid--${columns}`}>
      {cards.map((card) => (
        <li key={card.title} className="card">
          <h3>{card.title}</h3>
          <p>{card.description}</p>
        </li>
      ))}
    </ul>
  );
}
