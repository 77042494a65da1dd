import { useState } from 'react';
import { faq } from '@/content/landing';
import { defineIsland } from '@/lib/islands';

/** An accordion of real buttons: at most one answer is open, and the open one closes on a second press. */
export function FaqAccordion() {
  const [openIndex, setOpenIndex] = useState<number | null>(null);

  return (
    <div className="faq">
      {faq.items.map((item, index) => {
        const open = openIndex === index;
        return (
          <div key={item.question} className="faq__item">
            <h3>
              <button
                type="button"
                id={`faq-question-${index}`}
                className="faq__question"
                aria-expanded={open}
                aria-controls={`faq-answer-${index}`}
                onClick={() => setOpenIndex(open ? null : index)}
              >
                <span>{item.question}</span>
                <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                  <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                </svg>
              </button>
            </h3>
            <div id={`faq-answer-${index}`} className="faq__answer" role="region" aria-labelledby={`faq-question-${index}`} hidden={!open}>
              <p>{item.answer}</p>
            </div>
          </div>
        );
      })}
    </div>
  );
}

export const faqIsland = defineIsland('faq', () => <FaqAccordion />);
